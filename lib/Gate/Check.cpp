//===- Check.cpp - `port-kernel check` with formats and baselines ---------===//
// Rules: PK9100
#include "pk/GateCheck.h"
#include "pk/Inputs.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include <set>

using namespace pk;
namespace fs = llvm::sys::fs;

static std::string realOr(llvm::StringRef P) {
  llvm::SmallString<256> R;
  if (!fs::real_path(P, R))
    return R.str().str();
  return absPath(P);
}

int pk::runCheck(Driver &D, llvm::ArrayRef<std::string> Paths,
                 llvm::ArrayRef<Target> Targets, const CheckOptions &O,
                 llvm::raw_ostream &Out, llvm::raw_ostream &Diag) {
  if (O.UpdateBaseline && O.Baseline.empty()) {
    Diag << "port-kernel: error: --update-baseline needs --baseline FILE "
            "(the file to write)\n";
    return 2;
  }
  if (O.UpdateBaseline && !O.Output.empty()) {
    Diag << "port-kernel: error: --update-baseline writes the baseline only; "
            "drop --output\n";
    return 2;
  }
  if (O.Format == CheckFormat::Text && !O.Output.empty()) {
    Diag << "port-kernel: error: --output needs --format json or sarif (text "
            "findings go to stderr)\n";
    return 2;
  }
  if (!O.Baseline.empty() && !O.Output.empty() &&
      realOr(O.Baseline) == realOr(O.Output)) {
    Diag << "port-kernel: error: --output and --baseline name the same "
            "file\n";
    return 2;
  }
  // The recorded findings, read before anything runs.
  std::set<std::string> Known;
  if (!O.Baseline.empty() && !O.UpdateBaseline) {
    auto B = readReport(O.Baseline);
    if (!B) {
      Diag << llvm::toString(B.takeError())
           << " (record one with --update-baseline)\n";
      return 2;
    }
    for (const GateFinding &F : B->Findings)
      Known.insert(baselineKey(F));
  }
  std::string Root;
  if (O.SrcRoot.empty()) {
    llvm::SmallString<256> Cwd;
    fs::current_path(Cwd);
    Root = absPath(Cwd);
  } else {
    if (!fs::is_directory(O.SrcRoot)) {
      Diag << "port-kernel: error: --src-root " << O.SrcRoot
           << ": not a directory\n";
      return 2;
    }
    Root = absPath(O.SrcRoot);
  }

  std::vector<FileFailure> Failed;
  auto Res = D.translate(Paths, Targets, "", Driver::RunMode::Check,
                         O.Strict ? nullptr : &Failed);
  if (!Res) {
    Diag << llvm::toString(Res.takeError()) << "\n";
    return 2; // input error, not findings
  }
  for (const FileFailure &F : Failed)
    Diag << F.Reason << "\n"
         << llvm::formatv("{0}: note: not checked [{1}]\n", F.Path,
                          ruleName(RuleId::PK9100));

  // The baseline and the report are written, never read, by the run.
  std::set<std::string> Reads;
  for (const std::string &F : D.readFiles())
    Reads.insert(realOr(F));
  for (auto [What, P] :
       {std::pair<const char *, std::string>{"--baseline", O.Baseline},
        {"--output", O.Output}})
    if (!P.empty() && Reads.count(realOr(P))) {
      Diag << llvm::formatv("{0}: error: the {1} file is an input of this "
                            "run; choose another path\n",
                            P, What);
      return 2;
    }

  GateReport R;
  R.SrcRoot = Root;
  for (const TargetOutput &TO : *Res)
    for (const Finding &F : TO.Findings) {
      GateFinding G;
      G.Target = targetName(TO.T).str();
      G.Rule = F.RuleID;
      G.Level = severityName(F.Sev).str();
      G.Relative = isUnder(F.File, Root) && F.File != Root;
      G.File = G.Relative ? llvm::sys::path::convert_to_slash(
                                llvm::StringRef(F.File).drop_front(
                                    Root.size() + (Root == "/" ? 0 : 1)))
                          : F.File;
      G.Line = F.Line;
      G.Col = F.Col;
      G.Message = F.Message;
      R.Findings.push_back(std::move(G));
    }
  auto AbsOf = [&](const GateFinding &G) {
    return G.Relative ? (Root == "/" ? "/" + G.File : Root + "/" + G.File)
                      : G.File;
  };
  assignFingerprints(R.Findings, [&](const GateFinding &G) {
    auto Buf = llvm::MemoryBuffer::getFile(AbsOf(G));
    return Buf ? (*Buf)->getBuffer().str() : std::string();
  });
  sortAndDedupe(R.Findings);

  unsigned Counted = 0, New = 0;
  for (GateFinding &G : R.Findings) {
    bool Note = G.Level == "note";
    Counted += !Note;
    if (!O.Baseline.empty() && !O.UpdateBaseline) {
      G.BaselineState = Known.count(baselineKey(G)) ? "unchanged" : "new";
      New += !Note && G.BaselineState == "new";
    } else {
      New += !Note;
    }
  }
  std::string NotChecked =
      Failed.empty() ? ""
                     : llvm::formatv("; {0} input file(s) not checked [{1}]",
                                     Failed.size(), ruleName(RuleId::PK9100))
                           .str();
  // An input that could not be checked is an input error: no report, no
  // baseline is written.
  bool Write = Failed.empty();

  if (O.UpdateBaseline) {
    if (Write) {
      std::string S;
      llvm::raw_string_ostream OS(S);
      OS << llvm::formatv("{0:2}", reportToJson(R)) << "\n";
      if (llvm::Error E = writeReportFile(O.Baseline, S)) {
        Diag << llvm::toString(std::move(E)) << "\n";
        return 2;
      }
    }
    if (!O.Quiet)
      Diag << llvm::formatv("port-kernel: {0} finding(s){1}{2}\n", Counted,
                            Write ? " recorded in " + O.Baseline
                                  : std::string(", baseline not written"),
                            NotChecked);
    return Write ? 0 : 2;
  }

  if (O.Format == CheckFormat::Text) {
    for (const GateFinding &G : R.Findings)
      if (G.BaselineState != "unchanged")
        Diag << llvm::formatv("{0}:{1}:{2}: {3}: {4} [{5}]\n", AbsOf(G), G.Line,
                              G.Col, G.Level, G.Message, G.Rule);
  } else if (Write) {
    std::string S;
    llvm::raw_string_ostream OS(S);
    OS << llvm::formatv("{0:2}", O.Format == CheckFormat::Sarif
                                     ? reportToSarif(R, O.ToolVersion)
                                     : reportToJson(R))
       << "\n";
    if (O.Output.empty() || O.Output == "-")
      Out << S;
    else if (llvm::Error E = writeReportFile(O.Output, S)) {
      Diag << llvm::toString(std::move(E)) << "\n";
      return 2;
    }
  }
  if (!O.Quiet) {
    if (O.Baseline.empty())
      Diag << llvm::formatv("port-kernel: {0} finding(s){1}\n", Counted,
                            NotChecked);
    else
      Diag << llvm::formatv("port-kernel: {0} finding(s), {1} new (not in "
                            "the baseline {2}){3}\n",
                            Counted, New, O.Baseline, NotChecked);
  }
  return !Write ? 2 : New ? 1 : 0;
}

std::function<void(size_t, size_t, llvm::StringRef)> pk::terminalProgress() {
  if (!llvm::sys::Process::StandardErrIsDisplayed())
    return {};
  return [](size_t Done, size_t Total, llvm::StringRef File) {
    unsigned W = llvm::sys::Process::StandardErrColumns();
    llvm::errs() << "\r\033[K"
                 << progressLine(Done, Total, File, W ? W - 1 : 0);
    if (Done >= Total)
      llvm::errs() << "\r\033[K";
    llvm::errs().flush();
  };
}
