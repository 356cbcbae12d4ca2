//===- Check.cpp - `port-kernel check` with formats and baselines ---------===//
// Rules: PK9100, PK9220, PK9221
#include "pk/GateCheck.h"
#include "pk/Escape.h"
#include "pk/SafeIO.h"
#include "pk/Inputs.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "pk/Trace.h"
#include <algorithm>
#include <set>

using namespace pk;
namespace fs = llvm::sys::fs;

static bool isIdentChar(char C) { return llvm::isAlnum(C) || C == '_'; }

std::pair<unsigned, unsigned> pk::kernelLocation(llvm::StringRef Text,
                                                 llvm::StringRef Name) {
  Name = Name.take_until([](char C) { return C == '<'; }).trim();
  if (Name.empty())
    return {0, 0};
  for (size_t P = Text.find(Name); P != llvm::StringRef::npos;
       P = Text.find(Name, P + 1)) {
    size_t End = P + Name.size();
    if ((P && isIdentChar(Text[P - 1])) ||
        (End < Text.size() && isIdentChar(Text[End])))
      continue;
    llvm::StringRef After = Text.drop_front(End).ltrim();
    if (!After.starts_with("(") && !After.starts_with("<"))
      continue;
    // The declaration it belongs to starts after the last ';', '{' or '}'.
    size_t Start = Text.take_front(P).find_last_of(";{}");
    llvm::StringRef Decl =
        Text.slice(Start == llvm::StringRef::npos ? 0 : Start + 1, P);
    size_t G = Decl.find("__global__");
    if (G == llvm::StringRef::npos ||
        (G + 10 < Decl.size() && isIdentChar(Decl[G + 10])))
      continue;
    llvm::StringRef Before = Text.take_front(P);
    unsigned Line = 1 + Before.count('\n');
    size_t NL = Before.rfind('\n');
    unsigned Col = unsigned(P - (NL == llvm::StringRef::npos ? 0 : NL + 1)) + 1;
    return {Line, Col};
  }
  return {0, 0};
}

llvm::Expected<ValidationFindings>
pk::validationFindings(const llvm::json::Value &Doc) {
  namespace json = llvm::json;
  ValidationFindings VF;
  const json::Object *D = Doc.getAsObject();
  const json::Array *Cases = D ? D->getArray("cases") : nullptr;
  if (!Cases)
    return llvm::createStringError("port-kernel: error: --validate: the "
                                   "validation results have no cases");
  auto Str = [](const json::Object &O, llvm::StringRef K) {
    if (const json::Value *V = O.get(K)) {
      if (auto S = V->getAsString())
        return S->str();
      if (auto N = V->getAsNumber())
        return llvm::formatv("{0:e1}", *N).str();
    }
    return std::string();
  };
  std::string SpecErrors;
  for (const json::Value &CV : *Cases) {
    const json::Object *C = CV.getAsObject();
    if (!C)
      continue;
    if (const json::Value *E = C->get("error")) {
      SpecErrors += (SpecErrors.empty() ? "" : "\n") +
                    E->getAsString().value_or("a broken case.yaml").str();
      continue;
    }
    ++VF.Cases;
    std::string Name = Str(*C, "name"), Entry = Str(*C, "entry"),
                Source = Str(*C, "source");
    std::pair<unsigned, unsigned> Loc{0, 0};
    if (auto Buf = llvm::MemoryBuffer::getFile(Source))
      Loc = kernelLocation((*Buf)->getBuffer(), Entry);
    const json::Array *Res = C->getArray("results");
    for (const json::Value &RV : Res ? *Res : json::Array()) {
      const json::Object *R = RV.getAsObject();
      if (!R)
        continue;
      ++VF.Cells;
      std::string Status = Str(*R, "status"), Variant = Str(*R, "variant");
      if (Status == "pass") {
        ++VF.Passed;
        continue;
      }
      if (Status == "skip") {
        ++VF.Skipped;
        continue;
      }
      bool Original = Variant == "original";
      GateFinding G;
      G.Target = Variant;
      G.Rule = ruleName(Original ? RuleId::PK9221 : RuleId::PK9220).str();
      G.Level = "error";
      G.File = Source;
      G.Relative = false;
      G.Line = Loc.first;
      G.Col = Loc.second;
      std::string Reason = Str(*R, "reason");
      std::string Largest;
      if (R->get("max_abs"))
        Largest = llvm::formatv("; largest error: {0} absolute, {1} relative",
                                Str(*R, "max_abs"), Str(*R, "max_rel"))
                      .str();
      G.Message =
          Original
              ? llvm::formatv("kernel {0} (case {1}): the original fails its "
                              "reference, so the case cannot judge its ports: "
                              "{2}{3}",
                              Entry, Name, Reason, Largest)
                    .str()
              : llvm::formatv("kernel {0} (case {1}) fails validation as {2}: "
                              "{3}{4}",
                              Entry, Name, Variant, Reason, Largest)
                    .str();
      VF.Findings.push_back(std::move(G));
    }
  }
  if (!SpecErrors.empty())
    return llvm::createStringError(SpecErrors);
  return VF;
}

int pk::runCheck(Driver &D, llvm::ArrayRef<std::string> Paths,
                 llvm::ArrayRef<Target> Targets, const CheckOptions &O,
                 llvm::raw_ostream &Out, llvm::raw_ostream &Diag) {
  trace::Session Trace; // PK_TIME_TRACE (pk/Trace.h)
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
  if (!O.DepFile.empty() && (O.Output.empty() || O.Output == "-") &&
      !O.UpdateBaseline) {
    Diag << "port-kernel: error: --depfile needs a file to describe: "
            "--output FILE (or --update-baseline)\n";
    return 2;
  }
  if (!O.RulesUriBase.empty() &&
      !llvm::StringRef(O.RulesUriBase).contains("://")) {
    Diag << "port-kernel: error: --rules-uri-base " << O.RulesUriBase
         << ": not an absolute URI (scheme://...)\n";
    return 2;
  }
  // Every output, declared before anything runs: the plan refuses an
  // output on a file the run reads (checked again once every file is
  // read), two outputs on one path and an output through a link.
  WritePlan Plan;
  size_t ReportIdx = SIZE_MAX, DepIdx = SIZE_MAX;
  if (O.UpdateBaseline) {
    ReportIdx = Plan.outputs().size();
    Plan.add(O.Baseline, "--baseline (--update-baseline)");
  } else if (!O.Output.empty() && O.Output != "-" &&
             O.Format != CheckFormat::Text) {
    ReportIdx = Plan.outputs().size();
    Plan.add(O.Output, "--output");
  }
  bool DepOut = !O.DepFile.empty();
  if (DepOut) {
    DepIdx = Plan.outputs().size();
    Plan.add(O.DepFile, "--depfile");
  }
  if (!O.Baseline.empty() && !O.UpdateBaseline)
    noteRead(O.Baseline, "the --baseline file");
  if (llvm::Error E = Plan.check()) {
    Diag << llvm::toString(std::move(E)) << "\n";
    return 2;
  }
  // The recorded findings, read before anything runs.
  std::set<std::string> Known;
  if (!O.Baseline.empty() && !O.UpdateBaseline) {
    auto B = readReport(O.Baseline, nullptr, "the --baseline file");
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
  if (llvm::Error E = Plan.check()) {
    Diag << llvm::toString(std::move(E)) << "\n";
    return 2;
  }

  // What the report depends on, before --validate ports again.
  std::vector<std::string> Deps = D.dependencies();

  GateReport R;
  R.SrcRoot = Root;
  auto SetFile = [&](GateFinding &G, const std::string &File) {
    G.Relative = isUnder(File, Root) && File != Root;
    G.File = G.Relative ? llvm::sys::path::convert_to_slash(
                              llvm::StringRef(File).drop_front(
                                  Root.size() + (Root == "/" ? 0 : 1)))
                        : File;
  };
  for (const TargetOutput &TO : *Res)
    for (const Finding &F : TO.Findings) {
      GateFinding G;
      G.Target = targetName(TO.T).str();
      G.Rule = F.RuleID;
      G.Level = severityName(F.Sev).str();
      SetFile(G, F.File);
      G.Line = F.Line;
      G.Col = F.Col;
      G.Message = F.Message;
      R.Findings.push_back(std::move(G));
    }
  // Findings Checks disabled: only so that NOPK comments naming them are
  // not reported stale; removed once the comments are applied.
  std::vector<GateFinding> Disabled;
  for (const TargetOutput &TO : *Res)
    for (const Finding &F : TO.Disabled) {
      GateFinding G;
      G.Target = targetName(TO.T).str();
      G.Rule = F.RuleID;
      G.Level = severityName(F.Sev).str();
      SetFile(G, F.File);
      G.Line = F.Line;
      G.Col = F.Col;
      G.Disabled = true;
      Disabled.push_back(std::move(G));
    }

  // --validate: the case directories the checked files belong to are
  // validated; a failed (case, variant) is a finding at the case's kernel.
  std::string Validation;
  if (O.Validate && Failed.empty()) {
    std::set<std::string> CaseDirs;
    unsigned NotValidated = 0;
    if (!Res->empty())
      for (const auto &[In, Out] : Res->front().OutputOf) {
        std::string Dir = llvm::sys::path::parent_path(In).str();
        if (fs::exists(Dir + "/case.yaml")) {
          CaseDirs.insert(Dir);
          continue;
        }
        auto Buf = llvm::MemoryBuffer::getFile(In);
        if (Buf && (*Buf)->getBuffer().contains("__global__"))
          ++NotValidated;
      }
    ValidationFindings VF;
    if (!CaseDirs.empty()) {
      std::vector<std::string> Dirs(CaseDirs.begin(), CaseDirs.end());
      auto Doc = O.Validate(Dirs);
      if (!Doc) {
        Diag << llvm::toString(Doc.takeError()) << "\n";
        return 2;
      }
      auto V = validationFindings(*Doc);
      if (!V) {
        Diag << llvm::toString(V.takeError()) << "\n";
        return 2;
      }
      VF = std::move(*V);
      for (GateFinding &G : VF.Findings) {
        std::string Abs = G.File;
        SetFile(G, Abs);
        R.Findings.push_back(std::move(G));
      }
      // The case files are inputs of the report too.
      for (const std::string &Dir : CaseDirs) {
        std::error_code EC;
        for (fs::directory_iterator It(Dir, EC), End; It != End && !EC;
             It.increment(EC))
          if (fs::is_regular_file(It->path()))
            Deps.push_back(absPath(It->path()));
      }
      llvm::sort(Deps);
      Deps.erase(std::unique(Deps.begin(), Deps.end()), Deps.end());
    }
    Validation =
        llvm::formatv("; validation: {0} case(s), {1} of {2} run(s) "
                      "passed{3}",
                      VF.Cases, VF.Passed, VF.Cells,
                      VF.Skipped
                          ? llvm::formatv(", {0} skipped", VF.Skipped).str()
                          : std::string())
            .str();
    if (NotValidated)
      Validation += llvm::formatv("; {0} file(s) with kernels not validated "
                                  "(no case.yaml in their directory)",
                                  NotValidated)
                        .str();
  }
  auto AbsOf = [&](const GateFinding &G) {
    return G.Relative ? (Root == "/" ? "/" + G.File : Root + "/" + G.File)
                      : G.File;
  };
  // Inline suppressions (NOPK comments) in every file the run read.
  std::vector<std::string> Read(D.readFiles().begin(), D.readFiles().end());
  llvm::append_range(R.Findings, Disabled);
  unsigned NSuppressed = applySuppressions(
      R.Findings, Read,
      [&](const std::string &F) {
        GateFinding G;
        SetFile(G, F);
        return G.File;
      },
      [](const std::string &F) {
        auto Buf = llvm::MemoryBuffer::getFile(F);
        return Buf ? (*Buf)->getBuffer().str() : std::string();
      });
  llvm::erase_if(R.Findings, [](const GateFinding &G) { return G.Disabled; });
  // Checks and WarningsAsErrors: the findings check adds (PK9005,
  // validation) are selected here, and warnings become errors only now, so
  // that a NOPK comment suppresses a promoted warning as it does any other.
  if (O.Policy) {
    llvm::erase_if(R.Findings, [&](GateFinding &G) {
      Severity Sev = G.Level == "error"     ? Severity::Error
                     : G.Level == "warning" ? Severity::Warning
                                            : Severity::Note;
      FindingAction A = O.Policy->decide(AbsOf(G), G.Rule, Sev);
      if (A == FindingAction::Promote && G.Suppressed.empty()) {
        G.Level = "error";
        G.Promoted = true;
      }
      return A == FindingAction::Drop;
    });
    if (llvm::Error E = O.Policy->takeError()) {
      Diag << llvm::toString(std::move(E)) << "\n";
      return 2;
    }
  }
  assignFingerprints(R.Findings, [&](const GateFinding &G) {
    auto Buf = llvm::MemoryBuffer::getFile(AbsOf(G));
    return Buf ? (*Buf)->getBuffer().str() : std::string();
  });
  sortAndDedupe(R.Findings);

  unsigned Counted = 0, New = 0;
  for (GateFinding &G : R.Findings) {
    bool Note = G.Level == "note" || !G.Suppressed.empty();
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
  if (NSuppressed)
    NotChecked += llvm::formatv("; {0} suppressed (NOPK)", NSuppressed).str();
  NotChecked += Validation;
  // An input that could not be checked is an input error: no report, no
  // baseline is written.
  bool Write = Failed.empty();
  // The depfile of what is written; it is written with the report, all or
  // nothing (a build system reads it only after the command succeeded).
  if (Write && DepOut) {
    std::string Target = absPath(O.UpdateBaseline ? O.Baseline : O.Output);
    auto Text = depfileText({Target}, Deps);
    if (!Text) {
      Diag << llvm::toString(Text.takeError()) << "\n";
      return 2;
    }
    Plan.outputs()[DepIdx].Text = std::move(*Text);
  }

  if (O.UpdateBaseline) {
    if (Write) {
      std::string S;
      llvm::raw_string_ostream OS(S);
      writeReportJson(R, OS);
      OS << "\n";
      Plan.outputs()[ReportIdx].Text = std::move(S);
      if (int RC = Plan.write(Diag))
        return RC;
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
      if (G.BaselineState != "unchanged" && G.Suppressed.empty())
        Diag << llvm::formatv("{0}:{1}:{2}: {3}: {4} [{5}{6}]\n",
                              showControls(AbsOf(G)), G.Line, G.Col, G.Level,
                              showControls(G.Message), G.Rule,
                              G.Promoted ? ",-warnings-as-errors" : "");
  } else if (Write) {
    std::string S;
    llvm::raw_string_ostream OS(S);
    if (O.Format == CheckFormat::Sarif)
      OS << llvm::formatv("{0:2}",
                          reportToSarif(R, O.ToolVersion, O.RulesUriBase));
    else
      writeReportJson(R, OS);
    OS << "\n";
    if (O.Output.empty() || O.Output == "-")
      Out << S;
    else
      Plan.outputs()[ReportIdx].Text = std::move(S);
    if (!Plan.empty())
      if (int RC = Plan.write(Diag))
        return RC;
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
