//===- Report.h - `port-kernel report`: HTML, Markdown, patches -*- C++ -*-===//
// Rules: none (reports on what the rules did)
//
// Ports the inputs in memory (one parse, every target), then renders what
// the port recorded -- every edit's rule and reason, every finding, the
// wave-64 strategy note of each kernel -- as a self-contained HTML page, a
// Markdown summary and one `git apply`-able patch per target.  Nothing is
// re-derived; see docs/report.md.
//
//===----------------------------------------------------------------------===//
#ifndef PK_REPORT_H
#define PK_REPORT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"
#include <functional>
#include <string>
#include <vector>

namespace pk {

class Driver;
enum class Target;

struct ReportOptions {
  std::string HtmlPath;     ///< -o: the HTML page (required)
  std::string MarkdownPath; ///< --markdown
  std::string PatchDir;     ///< --patch-dir: DIR/<target>.patch
  std::vector<Target> Targets;
  /// --validate: runs the validation of the inputs and returns its JSON
  /// document (the one `validate --json` prints); empty: not requested.
  std::function<llvm::Expected<llvm::json::Value>()> Validate;
};

/// Runs `port-kernel report`; returns the exit code (0 written, 2 usage or
/// input error with nothing written, 130 interrupted).
int runReport(Driver &D, llvm::ArrayRef<std::string> Paths,
              const ReportOptions &O, llvm::raw_ostream &Diag);

} // namespace pk
#endif
