//===- MfmaPtx.cpp - inline-PTX mma.sync -> MFMA --------------------------===//
// Rules: PK3002, PK3011
//
// PK3002: an asm statement that is exactly
// mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 with %N operands
// becomes a call of the generated helper on v_mfma_f32_16x16x16f16
// (MfmaHelpers.cpp, emitted by MfmaEmit.cpp).  PK3011: any other inline
// PTX is left in place and reported, except lane-register reads that the
// wave-64 rules rewrote (PK2006).
//
//===----------------------------------------------------------------------===//
#include "MfmaHelpers.h"
#include "MfmaRules.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace pk;
using namespace pk::mfma;
using namespace clang;

namespace {

constexpr const char *PtxMmaName =
    "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32";

/// The instructions of an inline-PTX string (first token of each statement).
std::vector<std::string> ptxInstructions(llvm::StringRef Asm) {
  std::vector<std::string> Out;
  std::string Norm = Asm.str();
  for (char &C : Norm)
    if (C == '\n')
      C = ';';
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  llvm::StringRef(Norm).split(Parts, ';');
  for (llvm::StringRef P : Parts) {
    P = P.trim();
    while (!P.empty() && (P.front() == '{' || P.front() == '}'))
      P = P.drop_front().ltrim();
    if (P.empty() || P.starts_with("//") || P.starts_with("."))
      continue;
    llvm::StringRef Tok = P.take_until([](char C) { return isspace(C); });
    if (Tok.starts_with("@")) { // predicate guard
      P = P.drop_front(Tok.size()).ltrim();
      Tok = P.take_until([](char C) { return isspace(C); });
    }
    if (Tok.ends_with(":") || Tok.empty())
      continue;
    Out.push_back(Tok.str());
  }
  return Out;
}

/// True when another rule already rewrote (part of) \p S.
bool rewrittenElsewhere(TargetContext &TC, const Stmt *S) {
  SourceManager &SM = TC.SM();
  SourceLocation B = SM.getSpellingLoc(S->getBeginLoc());
  SourceLocation E = SM.getSpellingLoc(S->getEndLoc());
  FileEdits *FE = TC.Edits.find(TC.fileOf(B));
  if (!FE || SM.getFileID(B) != SM.getFileID(E))
    return false;
  unsigned Lo = SM.getFileOffset(B), Hi = SM.getFileOffset(E);
  for (const Edit &X : FE->edits())
    if (X.Offset + X.Length > Lo && X.Offset <= Hi && X.Why != "diagnostic")
      return true;
  return false;
}

/// Replaces the mma.sync statement \p S with a call of the helper; false
/// with \p Why when its operands are not the expected ones.
bool portMma(TargetContext &TC, const GCCAsmStmt *S, llvm::StringRef Str,
             std::string &Why) {
  // {%d0..%d3}, {%a0..%a3}, {%b0, %b1}, {%c0..%c3}
  llvm::StringRef Rest =
      Str.substr(Str.find(PtxMmaName) + llvm::StringRef(PtxMmaName).size());
  std::vector<std::vector<unsigned>> Groups;
  while (true) {
    size_t O = Rest.find('{');
    if (O == llvm::StringRef::npos)
      break;
    size_t C = Rest.find('}', O);
    if (C == llvm::StringRef::npos)
      break;
    llvm::SmallVector<llvm::StringRef, 4> Items;
    Rest.slice(O + 1, C).split(Items, ',');
    std::vector<unsigned> G;
    for (llvm::StringRef It : Items) {
      It = It.trim();
      unsigned N;
      if (!It.consume_front("%") || It.getAsInteger(10, N)) {
        Why = "an operand is not a %N reference";
        return false;
      }
      G.push_back(N);
    }
    Groups.push_back(G);
    Rest = Rest.drop_front(C + 1);
  }
  if (Groups.size() != 4 || Groups[0].size() != 4 || Groups[1].size() != 4 ||
      Groups[2].size() != 2 || Groups[3].size() != 4) {
    Why = "the operands are not {d0..d3}, {a0..a3}, {b0, b1}, {c0..c3}";
    return false;
  }
  unsigned NO = S->getNumOutputs(), NI = S->getNumInputs();
  std::vector<std::string> Args;
  auto Operand = [&](unsigned N, bool Out, std::string &Text) -> bool {
    const Expr *E = nullptr;
    std::string Cons;
    if (N < NO) {
      E = S->getOutputExpr(N);
      Cons = S->getOutputConstraint(N).str();
      if (!Out && Cons.find('+') == std::string::npos) {
        Why = llvm::formatv("%{0} is read but is a write-only output", N).str();
        return false;
      }
    } else if (!Out && N - NO < NI) {
      E = S->getInputExpr(N - NO);
    }
    if (!E) {
      Why =
          llvm::formatv("%{0} is not {1} operand", N, Out ? "an output" : "an")
              .str();
      return false;
    }
    if (E->HasSideEffects(TC.Ctx())) {
      Why = "an operand has side effects";
      return false;
    }
    if (Out && !E->getType()->isSpecificBuiltinType(BuiltinType::Float)) {
      Why = "an accumulator output is not a float";
      return false;
    }
    Text = TC.text(E);
    return true;
  };
  for (unsigned G = 0; G < 4; ++G)
    for (unsigned N : Groups[G]) {
      std::string T;
      if (!Operand(N, G == 0, T))
        return false;
      Args.push_back(T);
    }
  std::string Call = std::string(PtxMmaFn) + "(" + llvm::join(Args, ", ") + ")";
  if (!TC.replace(
          CharSourceRange::getTokenRange(S->getAsmLoc(), S->getRParenLoc()),
          Call, RuleId::PK3002,
          "PTX mma.sync m16n8k16 (per 32-lane warp) -> "
          "v_mfma_f32_16x16x16f16 per logical warp, operands moved "
          "between the PTX and MFMA lane layouts with wave-wide "
          "shuffles")) {
    Why = "the statement cannot be edited (macro)";
    return false;
  }
  return true;
}

} // namespace

std::vector<const GCCAsmStmt *> mfma::portInlinePtx(TargetContext &TC,
                                                    const FragmentPlan &P) {
  std::vector<const GCCAsmStmt *> Ported;
  std::set<std::string> HelperFiles;
  for (const GCCAsmStmt *S : P.Asms) {
    if (rewrittenElsewhere(TC, S))
      continue; // e.g. %laneid reads (the wave-64 rules)
    llvm::StringRef Str = S->getAsmString()->getString();
    std::vector<std::string> Ins = ptxInstructions(Str);
    if (Ins.size() == 1 && Ins[0] == PtxMmaName) {
      std::string Why;
      if (portMma(TC, S, Str, Why)) {
        Ported.push_back(S);
        HelperFiles.insert(TC.fileOf(TC.SM().getSpellingLoc(S->getAsmLoc())));
        continue;
      }
      if (!TC.editedBy(S->getAsmLoc(), RuleId::PK2006))
        TC.finding(S->getAsmLoc(), RuleId::PK3011, Severity::Warning,
                   llvm::formatv("inline PTX '{0}' is left in place: {1}",
                                 PtxMmaName, Why)
                       .str());
      continue;
    }
    std::string Names;
    for (size_t I = 0; I < Ins.size() && I < 4; ++I)
      Names += (I ? "', '" : "") + Ins[I];
    if (Ins.size() > 4)
      Names += "', ...";
    // Lane-register reads (%laneid, ...) that PK2006 rewrote are gone.
    if (TC.editedBy(S->getAsmLoc(), RuleId::PK2006))
      continue;
    TC.finding(S->getAsmLoc(), RuleId::PK3011, Severity::Warning,
               llvm::formatv("inline PTX '{0}' is left in place: AMD GPUs do "
                             "not run PTX, and only '{1}' is ported",
                             Ins.empty() ? Str.trim().str() : Names, PtxMmaName)
                   .str());
  }
  emitPtxHelpers(TC, HelperFiles);
  return Ported;
}
