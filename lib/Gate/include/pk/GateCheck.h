//===- GateCheck.h - `port-kernel check` with formats and baselines -------===//
// Rules: PK9100 (inputs not checked)
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
};

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

} // namespace pk
#endif
