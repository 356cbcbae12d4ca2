//===- MarkdownReport.cpp - a pull-request comment ------------------------===//
// Rules: none (reports on what the rules did)
#include "ReportModel.h"
#include "pk/Escape.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace pk;

// Every piece of user text (paths, case and kernel names, messages that
// quote code) goes through pk/Escape.h: markdownText for text, markdownCode
// for code spans, htmlEscape inside the <details> HTML blocks.  Nothing the
// user wrote can start a link, an image, raw HTML, a heading or a new table
// cell (test/unit/EscapeTest.cpp renders it back with cmark-gfm).
static std::string cell(llvm::StringRef S) { return markdownText(S); }
static std::string code(llvm::StringRef S) { return markdownCode(S, true); }

std::string pk::renderMarkdown(const ReportModel &M) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  OS << "## port-kernel report\n\n";
  OS << llvm::formatv("**{0}** input files, **{1}** kernels, targets: ",
                      M.Inputs.size(), M.Kernels.size());
  std::vector<std::string> Names;
  for (const TargetReport &T : M.Targets)
    Names.push_back(code(T.Name));
  OS << llvm::join(Names, ", ") << "\n\n";

  OS << "| target | files changed | edits | errors | warnings | notes |\n"
        "|---|---:|---:|---:|---:|---:|\n";
  for (const TargetReport &T : M.Targets) {
    unsigned Changed = 0;
    for (const FileReport &F : T.Files)
      Changed += F.Old != F.New;
    OS << llvm::formatv("| {0} | {1} | {2} | {3} | {4} | {5} |\n", cell(T.Name),
                        Changed, T.Edits, T.Errors, T.Warnings, T.Notes);
  }
  OS << "\n";

  OS << "**Validation:** ";
  if (!M.Validated)
    OS << "not run\n\n";
  else {
    OS << (M.ValFailed ? "FAILED" : "passed")
       << llvm::formatv(" ({0} passed, {1} failed, {2} skipped)\n\n",
                        M.ValPassed, M.ValFailed, M.ValSkipped);
    OS << "| case | kernel | variant | result | largest abs / rel error |\n"
          "|---|---|---|---|---|\n";
    for (const ValidationCell &C : M.Validation)
      OS << llvm::formatv(
          "| {0} | {4} | {1} | {2} | {3} |\n", code(C.Case), cell(C.Variant),
          C.Status == "pass" ? "pass" : "**" + cell(C.Status) + "**",
          C.HaveError ? cell(C.MaxAbs + " / " + C.MaxRel) : cell(C.Detail),
          code(C.Kernel));
    OS << "\n";
    if (!M.NotValidated.empty()) {
      OS << "Not validated (no verdict):\n";
      for (const auto &[K, Why] : M.NotValidated)
        OS << "- " << code(K) << ": " << cell(Why) << "\n";
      OS << "\n";
    }
  }

  if (!M.NotPorted.empty()) {
    OS << "**Not ported** (do not parse):\n";
    for (const auto &[P, Why] : M.NotPorted)
      OS << "- " << code(P) << "\n";
    OS << "\n";
  }

  // The flagged lines: every warning and error.
  std::vector<std::string> Flagged;
  for (const TargetReport &T : M.Targets)
    for (const FileReport &F : T.Files)
      for (const Finding &Fi : F.Findings)
        if (Fi.Sev != Severity::Note)
          Flagged.push_back(llvm::formatv("- {0} {1} {2} [{3}]: {4}",
                                          cell(T.Name),
                                          code(F.RelIn + ":" +
                                               std::to_string(Fi.Line)),
                                          severityName(Fi.Sev),
                                          Fi.RuleID, cell(Fi.Message))
                                .str());
  OS << "### Flagged lines (" << Flagged.size() << ")\n\n";
  if (Flagged.empty())
    OS << "None.\n";
  for (const std::string &L : Flagged)
    OS << L << "\n";
  OS << "\n";

  // Per file: edits by rule and every diagnostic, collapsed.
  for (const TargetReport &T : M.Targets)
    for (const FileReport &F : T.Files) {
      if (F.Old == F.New && F.Findings.empty())
        continue;
      std::map<std::string, unsigned> ByRule;
      unsigned N = 0;
      for (const Edit &E : F.Edits)
        if (E.Why != "diagnostic")
          ++ByRule[E.RuleID.str()], ++N;
      // An HTML block: HTML escaping, not Markdown's.
      OS << "<details><summary>" << htmlEscape(T.Name) << ": <code>"
         << htmlEscape(F.RelIn) << "</code> &rarr; <code>"
         << htmlEscape(F.RelOut) << "</code> (" << N
         << " edits, " << F.Findings.size() << " diagnostics)</summary>\n\n";
      if (!ByRule.empty()) {
        OS << "| rule | edits | title |\n|---|---:|---|\n";
        for (const auto &[R, C] : ByRule) {
          const RuleInfo *Info = RuleRegistry::get().find(R);
          OS << llvm::formatv("| {0} | {1} | {2} |\n", cell(R), C,
                              Info ? cell(Info->Title) : "");
        }
        OS << "\n";
      }
      for (const Finding &Fi : F.Findings)
        OS << llvm::formatv("- line {0}: {1} [{2}]: {3}\n", Fi.Line,
                            severityName(Fi.Sev), Fi.RuleID, cell(Fi.Message));
      // A generated output: which source lines became which operations.
      if (!F.Origins.empty()) {
        OS << "\n| kernel | source lines | output line | operation | rule | "
              "why |\n|---|---:|---:|---|---|---|\n";
        for (const GeneratedLine &G : F.Origins)
          OS << llvm::formatv("| {0} | {1} | {2} | {3} | {4} | {5} |\n",
                              code(G.Kernel), originLines(G), G.OutLine,
                              code(G.What), cell(G.RuleID.str()), cell(G.Why));
      }
      OS << "\n</details>\n\n";
    }
  return S;
}
