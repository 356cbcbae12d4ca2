//===- Report.cpp - `port-kernel report`: model and writing ---------------===//
// Rules: none (reports on what the rules did)
#include "pk/Report.h"
#include "Highlight.h"
#include "ReportModel.h"
#include "pk/Driver.h"
#include "pk/Inputs.h"
#include "pk/SafeIO.h"

#include "clang/Basic/LangOptions.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <algorithm>

using namespace pk;
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

/// Where translate() puts outputs of the in-memory port: never written,
/// only used to recover each output's path relative to the layout root.
static constexpr const char *VirtualRoot = "/pk-report-virtual-root";

std::string pk::strategyKernel(llvm::StringRef Msg) {
  if (!Msg.consume_front("kernel "))
    return "";
  return Msg.take_until([](char C) { return C == ':'; }).str();
}

/// The last \p N components of \p P, joined with '/'.
static std::string lastComponents(llvm::StringRef P, size_t N) {
  std::vector<llvm::StringRef> C(path::begin(P), path::end(P));
  N = std::min(N, C.size());
  std::string R;
  for (size_t I = C.size() - N; I < C.size(); ++I)
    R += (R.empty() ? "" : "/") + C[I].str();
  return R;
}

/// 0-based line of byte \p Off in \p Lines.
static unsigned lineOfOffset(llvm::ArrayRef<llvm::StringRef> Lines,
                             llvm::StringRef Text, unsigned Off) {
  // Lines point into Text: binary search on their start.
  auto It = std::upper_bound(Lines.begin(), Lines.end(), Off,
                             [&](unsigned O, llvm::StringRef L) {
                               return O < unsigned(L.data() - Text.data());
                             });
  return It == Lines.begin() ? 0 : unsigned(It - Lines.begin() - 1);
}

/// Ties each hunk to the edits and findings on the old lines it changes.
static void attribute(FileReport &F) {
  auto Script = diffLines(F.OldLines, F.NewLines);
  std::vector<DiffHunk> Hunks = makeHunks(Script, 3);
  // A target that generates its output whole (NKI) records no edits, yet
  // lines of the input go; comments of findings alone only add lines.
  F.Generated =
      llvm::none_of(F.Edits,
                    [](const Edit &E) { return E.Why != "diagnostic"; }) &&
      llvm::any_of(Script,
                   [](const DiffLine &L) { return L.K == DiffLine::Delete; });
  // Old line span [Lo, Hi] of each edit and finding.
  struct Span {
    unsigned Lo, Hi;
  };
  std::vector<Span> ESpans, FSpans;
  for (const Edit &E : F.Edits) {
    unsigned Lo = lineOfOffset(F.OldLines, F.Old, E.Offset);
    unsigned Hi = E.Length
                      ? lineOfOffset(F.OldLines, F.Old, E.Offset + E.Length - 1)
                      : Lo;
    ESpans.push_back({Lo, Hi});
  }
  for (const Finding &Fi : F.Findings) {
    unsigned L = Fi.Line ? Fi.Line - 1 : 0;
    FSpans.push_back({L, L});
  }
  std::vector<bool> FTaken(F.Findings.size()); // each shown once
  for (DiffHunk &H : Hunks) {
    HunkReport R;
    // The old lines each run of changes touches: [First, Last], widened by
    // one line on each side (an insertion sits between two lines).
    std::vector<Span> Changed;
    unsigned OldPos = H.OldStart;
    for (size_t I = 0; I < H.Lines.size();) {
      if (H.Lines[I].K == DiffLine::Equal) {
        OldPos = H.Lines[I].Old + 1;
        ++I;
        continue;
      }
      unsigned First = OldPos, Last = OldPos;
      bool AnyOld = false;
      while (I < H.Lines.size() && H.Lines[I].K != DiffLine::Equal) {
        if (H.Lines[I].K == DiffLine::Delete) {
          First = AnyOld ? First : H.Lines[I].Old;
          Last = H.Lines[I].Old;
          AnyOld = true;
        }
        ++I;
      }
      Changed.push_back({First ? First - 1 : 0, Last + 1});
    }
    auto Touches = [&](const Span &S) {
      return llvm::any_of(
          Changed, [&](const Span &C) { return S.Lo <= C.Hi && C.Lo <= S.Hi; });
    };
    for (size_t I = 0; I < F.Edits.size(); ++I)
      if (Touches(ESpans[I])) {
        R.Edits.push_back(&F.Edits[I]);
        R.Rules.insert(F.Edits[I].RuleID.str());
      }
    for (size_t I = 0; I < F.Findings.size(); ++I)
      if (!FTaken[I] && Touches(FSpans[I])) {
        FTaken[I] = true;
        R.Findings.push_back(&F.Findings[I]);
        R.Rules.insert(F.Findings[I].RuleID);
      }
    // Nothing at the changed lines themselves (a diff may align inserted
    // lines with equal ones nearby): the edits anywhere in the hunk.
    if (R.Rules.empty()) {
      Span Whole{H.OldStart, H.OldStart + H.OldLen};
      for (size_t I = 0; I < F.Edits.size(); ++I)
        if (ESpans[I].Lo <= Whole.Hi && Whole.Lo <= ESpans[I].Hi) {
          R.Edits.push_back(&F.Edits[I]);
          R.Rules.insert(F.Edits[I].RuleID.str());
        }
    }
    R.Generated = F.Generated;
    R.H = std::move(H);
    F.Hunks.push_back(std::move(R));
  }
}

/// The __global__ functions of \p Text (raw lexer: `__global__`, then the
/// name before the first '(').
static void findKernels(llvm::StringRef Rel, llvm::StringRef Text0,
                        std::vector<KernelReport> &Out) {
  std::string Text = Text0.str();
  clang::LangOptions LO;
  LO.CPlusPlus = LO.CPlusPlus11 = LO.CPlusPlus14 = LO.CPlusPlus17 = 1;
  LO.CUDA = 1;
  const char *B = Text.c_str();
  clang::Lexer L(clang::SourceLocation(), LO, B, B, B + Text.size());
  clang::Token T;
  bool InGlobal = false, InDirective = false;
  std::string Last;
  unsigned LastOff = 0;
  while (true) {
    L.LexFromRawLexer(T);
    if (T.is(clang::tok::eof))
      break;
    if (T.isAtStartOfLine())
      InDirective = T.is(clang::tok::hash);
    if (InDirective)
      continue; // macros are not kernels
    if (T.is(clang::tok::raw_identifier)) {
      if (T.getRawIdentifier() == "__global__") {
        InGlobal = true;
        Last.clear();
        continue;
      }
      Last = T.getRawIdentifier().str();
      LastOff = unsigned(L.getBufferLocation() - B) - T.getLength();
    } else if (InGlobal && T.is(clang::tok::l_paren) && !Last.empty() &&
               Last != "__launch_bounds__") {
      KernelReport K;
      K.Name = Last;
      K.RelFile = Rel.str();
      K.Line = 1 + llvm::StringRef(B, LastOff).count('\n');
      Out.push_back(std::move(K));
      InGlobal = false;
    } else if (T.isOneOf(clang::tok::semi, clang::tok::l_brace)) {
      InGlobal = false;
    }
  }
}

/// Fills the validation part of \p M from `validate --json`'s document.
static llvm::Error readValidation(const llvm::json::Value &V, ReportModel &M) {
  const llvm::json::Object *Doc = V.getAsObject();
  if (!Doc)
    return llvm::createStringError("validation results are not an object");
  M.Validated = true;
  if (const llvm::json::Array *Vs = Doc->getArray("variants"))
    for (const llvm::json::Value &X : *Vs)
      if (auto S = X.getAsString())
        M.Variants.push_back(S->str());
  auto Str = [](const llvm::json::Object &O, llvm::StringRef K) {
    if (const llvm::json::Value *X = O.get(K)) {
      if (auto S = X->getAsString())
        return S->str();
      if (auto D = X->getAsNumber())
        return llvm::formatv("{0:e2}", *D).str();
    }
    return std::string();
  };
  // The case's driver launches one kernel, its entry: the verdict is that
  // kernel's.  Other kernels of the inputs are listed as not validated.
  std::set<std::pair<std::string, std::string>> Covered; // file, name
  std::map<std::string, std::string> CaseOfDir;          // dir -> entry
  auto RelOf = [&](llvm::StringRef Abs) {
    llvm::StringRef R = Abs;
    if (R.consume_front(M.Root) && R.consume_front("/"))
      return R.str();
    return Abs.str();
  };
  const llvm::json::Array *Cases = Doc->getArray("cases");
  if (!Cases)
    return llvm::createStringError("validation results have no cases");
  for (const llvm::json::Value &CV : *Cases) {
    const llvm::json::Object *C = CV.getAsObject();
    if (!C)
      continue;
    std::string Name = Str(*C, "name");
    std::string Entry = Str(*C, "entry"), Source = Str(*C, "source");
    std::string Bare = llvm::StringRef(Entry)
                           .take_until([](char Ch) { return Ch == '<'; })
                           .trim()
                           .str();
    std::string Where;
    if (!Source.empty()) {
      std::string Rel = RelOf(Source);
      Where = Rel;
      for (const KernelReport &K : M.Kernels)
        if (K.RelFile == Rel && K.Name == Bare)
          Where = llvm::formatv("{0}:{1}", Rel, K.Line).str();
      Covered.insert({Rel, Bare});
      CaseOfDir[path::parent_path(Rel).str()] = Name + "|" + Bare;
    }
    const llvm::json::Array *Res = C->getArray("results");
    if (!Res || Res->empty()) {
      ValidationCell Cell{Name, Bare.empty() ? "?" : Bare, "-", "fail",
                          Str(*C, "error")};
      Cell.Where = Where;
      M.Validation.push_back(Cell);
      ++M.ValFailed;
      continue;
    }
    for (const llvm::json::Value &RV : *Res) {
      const llvm::json::Object *R = RV.getAsObject();
      if (!R)
        continue;
      ValidationCell Cell;
      Cell.Case = Name;
      Cell.Kernel = Bare;
      Cell.Where = Where;
      Cell.Variant = Str(*R, "variant");
      Cell.Status = Str(*R, "status");
      Cell.Detail = Str(*R, "reason");
      if (Cell.Detail.empty())
        Cell.Detail = Str(*R, "detail");
      Cell.HaveError = R->get("max_abs") != nullptr;
      Cell.MaxAbs = Str(*R, "max_abs");
      Cell.MaxRel = Str(*R, "max_rel");
      (Cell.Status == "pass"   ? M.ValPassed
       : Cell.Status == "skip" ? M.ValSkipped
                               : M.ValFailed)++;
      M.Validation.push_back(std::move(Cell));
    }
  }
  for (const KernelReport &K : M.Kernels) {
    if (Covered.count({K.RelFile, K.Name}))
      continue;
    std::string What =
        llvm::formatv("{0} ({1}:{2})", K.Name, K.RelFile, K.Line).str();
    auto It = CaseOfDir.find(path::parent_path(K.RelFile).str());
    if (It != CaseOfDir.end()) {
      auto [CaseName, Entry] = llvm::StringRef(It->second).split('|');
      M.NotValidated.push_back(
          {What, llvm::formatv("in the directory of case {0}, whose driver "
                               "launches only {1}",
                               CaseName, Entry)
                     .str()});
    } else {
      M.NotValidated.push_back({What, "no case launches it"});
    }
  }
  return llvm::Error::success();
}

std::string pk::originLines(const GeneratedLine &G) {
  if (G.EndLine <= G.Line)
    return std::to_string(G.Line);
  return std::to_string(G.Line) + "-" + std::to_string(G.EndLine);
}

int pk::runReport(Driver &D, llvm::ArrayRef<std::string> Paths,
                  const ReportOptions &O, llvm::raw_ostream &Diag) {
  if (O.HtmlPath.empty()) {
    Diag << "port-kernel: error: report needs -o FILE.html\n";
    return 2;
  }
  if (Paths.empty()) {
    Diag << "port-kernel: error: no input files or directories\n";
    return 2;
  }

  // The outputs of the report (SafeIO.h: none may land on a file the run
  // reads, nor two on one path, nor one through a link).
  WritePlan Plan;
  Plan.add(O.HtmlPath, "-o");
  if (!O.MarkdownPath.empty())
    Plan.add(O.MarkdownPath, "--markdown");
  std::string PatchDir = O.PatchDir.empty() ? "" : absPath(O.PatchDir);

  std::vector<FileFailure> Failed;
  auto Res = D.translate(Paths, O.Targets, VirtualRoot, Driver::RunMode::Port,
                         &Failed);
  if (!Res) {
    Diag << llvm::toString(Res.takeError()) << "\n";
    Diag << "port-kernel: no output written\n";
    return 2;
  }
  for (const FileFailure &F : Failed)
    Diag << F.Reason << "\n"
         << llvm::formatv("{0}: note: not ported; the report covers the "
                          "other inputs [PK9100]\n",
                          F.Path);

  ReportModel M;
  for (const FileFailure &F : Failed)
    M.NotPorted.push_back({F.Path, F.Reason});
  std::set<std::string> Seen;
  for (const TargetOutput &TO : *Res) {
    TargetReport T;
    T.Name = targetName(TO.T).str();
    std::string Base = std::string(VirtualRoot) + "/" + T.Name + "/";
    std::map<std::string, std::vector<Edit>> EditsOf;
    for (const Edit &E : TO.Edits)
      EditsOf[E.File.str()].push_back(E);
    std::map<std::string, std::vector<Finding>> FindsOf;
    for (const Finding &F : TO.Findings) {
      FindsOf[F.File].push_back(F);
      T.Errors += F.Sev == Severity::Error;
      T.Warnings += F.Sev == Severity::Warning;
      T.Notes += F.Sev == Severity::Note;
      M.Rules.insert(F.RuleID);
    }
    for (const Edit &E : TO.Edits)
      if (E.Why != "diagnostic") { // comments of findings are not edits
        ++T.EditsByRule[E.RuleID.str()];
        ++T.Edits;
        M.Rules.insert(E.RuleID.str());
      }
    for (const auto &[In, Out] : TO.OutputOf) {
      FileReport F;
      F.In = In;
      F.Out = Out;
      F.RelOut = llvm::StringRef(Out).starts_with(Base)
                     ? Out.substr(Base.size())
                     : path::filename(Out).str();
      size_t Depth = std::distance(path::begin(F.RelOut), path::end(F.RelOut));
      F.RelIn = lastComponents(In, Depth);
      if (M.Root.empty()) {
        M.Root = In.substr(0, In.size() - F.RelIn.size());
        while (M.Root.size() > 1 && M.Root.back() == '/')
          M.Root.pop_back();
      }
      auto Buf = llvm::MemoryBuffer::getFile(In);
      if (!Buf) {
        Diag << In << ": error: cannot read: " << Buf.getError().message()
             << "\n";
        return 2;
      }
      F.Old = (*Buf)->getBuffer().str();
      F.New = TO.Files.at(Out);
      F.Edits = EditsOf[In];
      F.Findings = FindsOf[In];
      auto G = TO.GenLines.find(In);
      if (G != TO.GenLines.end()) {
        F.Origins = G->second;
        for (const GeneratedLine &L : F.Origins)
          M.Rules.insert(L.RuleID.str());
      }
      auto N = TO.Needs.find(In);
      if (N != TO.Needs.end()) {
        F.Needs.assign(N->second.begin(), N->second.end());
        F.Gpus = gpusWith(N->second);
      }
      if (Seen.insert(F.RelIn).second) {
        M.Inputs.push_back(F.RelIn);
        if (llvm::StringRef(F.Old).contains("__global__"))
          findKernels(F.RelIn, F.Old, M.Kernels);
      }
      T.Files.push_back(std::move(F));
    }
    for (FileReport &F : T.Files) {
      F.OldLines = splitLines(F.Old);
      F.NewLines = splitLines(F.New);
      attribute(F);
    }
    M.Targets.push_back(std::move(T));
  }
  // The strategy note of each kernel per target (PK2000).
  for (const TargetReport &T : M.Targets)
    for (const FileReport &F : T.Files)
      for (const Finding &Fi : F.Findings)
        if (Fi.RuleID == ruleName(RuleId::PK2000)) {
          std::string Name = strategyKernel(Fi.Message);
          for (KernelReport &K : M.Kernels)
            if (K.Name == Name && K.RelFile == F.RelIn)
              K.Strategy[T.Name] = &Fi;
        }

  if (O.Validate) {
    auto V = O.Validate();
    if (!V) {
      Diag << llvm::toString(V.takeError()) << "\n";
      Diag << "port-kernel: no output written\n";
      return 2;
    }
    if (llvm::Error E = readValidation(*V, M)) {
      Diag << "port-kernel: error: " << llvm::toString(std::move(E)) << "\n";
      return 2;
    }
  }

  Plan.outputs()[0].Text = renderHtml(M);
  if (!O.MarkdownPath.empty())
    Plan.outputs()[1].Text = renderMarkdown(M);
  if (!PatchDir.empty())
    for (const TargetReport &T : M.Targets) {
      // `git apply` rejects an empty patch: a target that changes nothing
      // gets no patch file, and a note says so.
      std::string P = renderPatch(T);
      if (P.empty()) {
        Diag << llvm::formatv("port-kernel: note: {0}: the port changes no "
                              "file; no {0}.patch written\n",
                              T.Name);
        continue;
      }
      Plan.add(PatchDir + "/" + T.Name + ".patch", "--patch-dir",
               std::move(P));
    }
  // Inputs that do not parse: the report covers the others and the exit
  // status says so (4, as port); when none parses nothing is written (2).
  if (!Failed.empty() && M.Inputs.empty()) {
    Diag << "port-kernel: no input could be ported; no output written\n";
    return 2;
  }
  if (int RC = Plan.write(Diag))
    return RC;
  return Failed.empty() ? 0 : 4;
}
