//===- ReportModel.h - what a report shows ----------------------*- C++ -*-===//
// Rules: none (reports on what the rules did)
//
// The port's results (pk::TargetOutput: outputs, edits with provenance,
// findings) arranged per target and file, with each diff hunk tied to the
// edits and findings at its lines.  Built by Report.cpp; rendered by
// HtmlReport.cpp, MarkdownReport.cpp and Patch.cpp, which include no clang
// header.
//
//===----------------------------------------------------------------------===//
#ifndef PK_REPORT_REPORTMODEL_H
#define PK_REPORT_REPORTMODEL_H

#include "pk/Edit.h"
#include "pk/LineDiff.h"
#include "pk/Rules.h"
#include <map>
#include <set>
#include <string>
#include <vector>

namespace pk {

/// A diff hunk and what produced it.
struct HunkReport {
  DiffHunk H;
  std::vector<const Edit *> Edits;       ///< edits whose lines it touches
  std::vector<const Finding *> Findings; ///< findings at its lines
  std::set<std::string> Rules;           ///< rule IDs of both
  /// True when the target generated the file whole (no edit to point at).
  bool Generated = false;
};

struct FileReport {
  std::string In, Out;       ///< absolute paths
  std::string RelIn, RelOut; ///< relative to the layout root
  std::string Old, New;      ///< input and output text
  std::vector<llvm::StringRef> OldLines, NewLines; ///< into Old and New
  std::vector<HunkReport> Hunks;
  std::vector<Edit> Edits;       ///< this file's edits
  std::vector<Finding> Findings; ///< this file's findings
  bool Generated = false;
  std::vector<std::string> Needs, Gpus;
  /// Outputs generated whole: each output line's operation and the input
  /// lines it comes from (the NKI target's tile operations).
  std::vector<GeneratedLine> Origins;
};

/// "12" or "12-14": the input lines of a generated line.
std::string originLines(const GeneratedLine &G);

/// A kernel (a __global__ function found by the lexer) and, per target,
/// the wave-64 strategy note the port recorded for it (PK2000).
struct KernelReport {
  std::string Name, RelFile;
  unsigned Line = 0;
  std::map<std::string, const Finding *> Strategy; ///< target -> note
};

struct TargetReport {
  std::string Name;
  std::vector<FileReport> Files;
  std::map<std::string, unsigned> EditsByRule;
  unsigned Edits = 0, Errors = 0, Warnings = 0, Notes = 0;
};

/// One cell of `validate --json`: a case run as one variant; the verdict is
/// that of the one kernel the case's driver launches (its entry).
struct ValidationCell {
  std::string Case, Kernel, Variant, Status, Detail;
  std::string Where; ///< the kernel's "file:line" (relative), if found
  bool HaveError = false;
  std::string MaxAbs, MaxRel; ///< as printed (numbers, "inf", "nan")
};

struct ReportModel {
  std::string Root; ///< the layout root (inputs' common directory)
  std::vector<std::string> Inputs; ///< relative input files
  std::vector<TargetReport> Targets;
  std::vector<KernelReport> Kernels;
  std::vector<std::pair<std::string, std::string>> NotPorted; ///< path, why
  bool Validated = false;
  std::vector<std::string> Variants;
  std::vector<ValidationCell> Validation;
  unsigned ValPassed = 0, ValFailed = 0, ValSkipped = 0;
  /// Kernels of the inputs that no validated case launches: "name
  /// (file:line)" and why.
  std::vector<std::pair<std::string, std::string>> NotValidated;
  /// Every rule an edit or finding names, for the embedded docs.
  std::set<std::string> Rules;
};

std::string renderHtml(const ReportModel &M);
std::string renderMarkdown(const ReportModel &M);
/// One target's patch: `git apply` in the layout root turns the inputs into
/// the outputs (renames as git renames).
std::string renderPatch(const TargetReport &T);

/// "kernel NAME" of a PK2000 note's message, or "".
std::string strategyKernel(llvm::StringRef Message);

} // namespace pk
#endif
