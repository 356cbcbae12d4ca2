//===- GateCheck.h - `port-kernel check` with formats and baselines -------===//
// Rules: PK9100 (inputs not checked), PK9220, PK9221 (validation findings)
#ifndef PK_GATECHECK_H
#define PK_GATECHECK_H

#include "pk/Driver.h"
#include "pk/Gate.h"
#include "llvm/Support/CommandLine.h"

namespace pk {

struct CheckOptions {
  CheckFormat Format = CheckFormat::Text;
  std::string Output;   ///< report file; empty: standard output
  std::string Baseline; ///< --baseline FILE
  bool UpdateBaseline = false;
  std::string SrcRoot; ///< paths in reports are relative to it (default: cwd)
  std::string ToolVersion;
  bool Quiet = false;
  bool Strict = false;
  /// --rules-uri-base URL: where docs/rules/ is published (SARIF helpUri of
  /// each rule, informationUri); empty: no URIs.
  std::string RulesUriBase;
  /// --depfile FILE: a Makefile-syntax depfile for the --output report (or
  /// the baseline with --update-baseline) naming every file the run read.
  std::string DepFile;
  /// --validate: runs `validate --json` over the given case directories and
  /// returns its document (what runValidate prints); empty: not requested.
  std::function<llvm::Expected<llvm::json::Value>(
      const std::vector<std::string> &CaseDirs)>
      Validate;
  /// Checks and WarningsAsErrors per file (the driver's policy; null: none).
  /// The driver drops the findings it disables; check promotes warnings
  /// after NOPK comments apply, and applies it to its own findings (PK9005,
  /// validation).
  FindingPolicy *Policy = nullptr;
};

/// The line and column of the name of kernel \p Name (template arguments
/// ignored) where \p Text defines it as a __global__ function; {0, 0} when
/// it does not.
std::pair<unsigned, unsigned> kernelLocation(llvm::StringRef Text,
                                             llvm::StringRef Name);

/// The findings of a `validate --json` document \p Doc: one per failed
/// (case, variant), at the case's entry kernel, PK9220 for a port and PK9221
/// for the original.  Paths stay absolute.  A case whose spec is broken is
/// an input error: its `file:line:col: error:` text is returned instead.
struct ValidationFindings {
  std::vector<GateFinding> Findings;
  unsigned Cases = 0, Cells = 0, Passed = 0, Skipped = 0;
};
llvm::Expected<ValidationFindings>
validationFindings(const llvm::json::Value &Doc);

/// `check`: findings of every target over \p Paths, as text (clang-style on
/// stderr), JSON or SARIF; with a baseline only findings not in it count.
/// Returns the exit code: 0 no (new) findings, 1 new findings, 2 usage or
/// input error (nothing written then).
int runCheck(Driver &D, llvm::ArrayRef<std::string> Paths,
             llvm::ArrayRef<Target> Targets, const CheckOptions &O,
             llvm::raw_ostream &Out, llvm::raw_ostream &Diag);

/// A progress reporter for DriverOptions::Progress that redraws one line on
/// stderr when stderr is a terminal, and an empty function otherwise.
std::function<void(size_t, size_t, llvm::StringRef)> terminalProgress();

/// docs/cli.md: every subcommand (but \p Hidden ones) and its options of
/// category \p Cat, from llvm::cl's registered options.  \p Values lists
/// an option's enumerated values (name, description), if it has any.
void writeCliReference(
    llvm::raw_ostream &OS, const llvm::cl::OptionCategory &Cat,
    const std::function<std::vector<std::pair<std::string, std::string>>(
        const llvm::cl::Option &)> &Values);

/// The generated reference of the command line in \p Format: "cli"
/// (docs/cli.md, writeCliReference), "man" (port-kernel.1, roff), "bash"
/// or "zsh" (completion scripts).  False for any other format.
bool writeCliDoc(
    llvm::StringRef Format, llvm::raw_ostream &OS,
    const llvm::cl::OptionCategory &Cat,
    const std::function<std::vector<std::pair<std::string, std::string>>(
        const llvm::cl::Option &)> &Values);

} // namespace pk
#endif
