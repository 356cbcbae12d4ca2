//===- Gate.h - `check` as a CI gate: formats, fingerprints, baselines
//-----===//
// Rules: none (reports of findings)
#ifndef PK_GATE_H
#define PK_GATE_H

#include "pk/Rules.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace pk {

enum class CheckFormat { Text, Json, Sarif };

/// One finding of `check` as reports carry it.
struct GateFinding {
  std::string Target;   ///< "hip", "cuda", ...
  std::string Rule;     ///< PK2001
  std::string Level;    ///< "error", "warning", "note"
  std::string File;     ///< relative to the source root ('/'), or absolute
  bool Relative = true; ///< File is relative to the source root
  unsigned Line = 0, Col = 0;
  std::string Message;
  std::string Fingerprint;
  /// With a baseline: "new" or "unchanged"; empty without one.
  std::string BaselineState;
  /// "inSource" when a NOPK comment suppresses it (SARIF's suppression
  /// kind): kept in the reports, not counted, not printed.
  std::string Suppressed;
  /// A warning WarningsAsErrors made an error (docs/configuration.md).
  bool Promoted = false;
  /// Disabled by Checks: not reported; passed to applySuppressions only so
  /// that a NOPK comment naming it is not stale.
  bool Disabled = false;
};

/// Everything a check report holds.
struct GateReport {
  std::string SrcRoot; ///< absolute directory the relative paths start from
  std::vector<GateFinding> Findings;
  /// Written by merge-reports: how many reports it merged (0: a check run's).
  int64_t MergedFrom = 0;
};

/// The text of a finding's line, whitespace runs collapsed to one space and
/// trimmed (what a fingerprint hashes instead of the line number).
std::string normalizedLine(llvm::StringRef Contents, unsigned Line);

/// Fills every finding's Fingerprint: a hash of target, rule, file, the
/// normalised text of the flagged line and the finding's index among those
/// with the same four (in line order), so it survives edits elsewhere in
/// the file.  \p ContentsOf gives a file's text by its path as stored.
void assignFingerprints(
    std::vector<GateFinding> &Fs,
    const std::function<std::string(const GateFinding &)> &ContentsOf);

/// Sorts (file, line, column, rule, target, message) and drops duplicates
/// (same target, rule, file and fingerprint).
void sortAndDedupe(std::vector<GateFinding> &Fs);

/// Writes the report as `check --format json` does (indent 2, keys sorted),
/// as it is made: no value tree of the whole report.
void writeReportJson(const GateReport &R, llvm::raw_ostream &OS);
/// The report as SARIF 2.1.0 (one run; tool.driver.rules: every rule of the
/// rule table and of --rules tables, with their documentation as help).
/// With \p RulesUriBase (where docs/rules/ is published), each rule's
/// helpUri is RulesUriBase/ID.md and the driver's informationUri is the
/// catalogue RulesUriBase/README.md; without it neither is written.
llvm::json::Value reportToSarif(const GateReport &R,
                                llvm::StringRef ToolVersion,
                                llvm::StringRef RulesUriBase = "");
/// Reads a report written by writeReportJson or reportToSarif; errors name the
/// file and what is wrong.
/// The file is registered as read in \p Role (SafeIO.h), and its size and
/// nesting are bounded.
llvm::Expected<GateReport> readReport(llvm::StringRef Path,
                                      CheckFormat *Format = nullptr,
                                      llvm::StringRef Role = "the report");

/// readReport() of text already read (\p Path names it in errors).
llvm::Expected<GateReport> parseReport(llvm::StringRef Text,
                                       llvm::StringRef Path,
                                       CheckFormat *Format = nullptr);

/// Applies the NOPK comments of \p Files (absolute paths; \p RelOf gives
/// the report path of one, \p ContentsOf its text) to \p Findings: the
/// findings they cover are marked Suppressed; PK9005 findings are appended
/// for suppressions that name no rule, are not closed, cover an error
/// (never suppressed) or suppress nothing.  Returns how many were
/// suppressed (lib/Gate/Suppress.cpp, docs/rules/PK9005.md).
unsigned applySuppressions(
    std::vector<GateFinding> &Findings, llvm::ArrayRef<std::string> Files,
    const std::function<std::string(const std::string &)> &RelOf,
    const std::function<std::string(const std::string &)> &ContentsOf);

/// The keys a baseline matches on: target, rule, file and fingerprint.
std::string baselineKey(const GateFinding &F);

/// `merge-reports OUT IN...`: combines shards' reports (all JSON or all
/// SARIF) into one: the union, duplicates dropped, in a stable order.
/// Reports of different source roots are not merged (their relative paths
/// name different files).  OUT may not be an input, nor an existing report
/// when it is not one (a forgotten OUT would replace the first shard).
/// Returns the exit code (0, or 2 on an input error; nothing written then).
int mergeReports(llvm::StringRef Out, llvm::ArrayRef<std::string> Ins,
                 llvm::StringRef ToolVersion, llvm::raw_ostream &Diag,
                 llvm::StringRef RulesUriBase = "");


/// One progress line: "[done/total] file", cut at the front to \p Width
/// columns (0: no limit).
std::string progressLine(size_t Done, size_t Total, llvm::StringRef File,
                         unsigned Width);

/// docs/rules/README.md: the rule catalogue, from the rule table.
void writeRuleCatalogue(llvm::raw_ostream &OS);

} // namespace pk
#endif
