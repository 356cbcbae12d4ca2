//===- Wave64Shuffles.cpp - warp shuffles on 64-lane waves ----------------===//
// Rules: PK2001, PK2020
//
// CUDA shuffles take a mask and default to the 32-lane warp; HIP shuffles
// have no mask and default to the 64-lane wave.  Logical warps (PK2001) keep
// 32-lane segments with an explicit width of 32 and wrap the source lane of
// __shfl into the segment as CUDA does; native warps (PK2020) shuffle over
// the whole wave, and an unrolled 16..1 reduction gains the offset-32 step.
//
//===----------------------------------------------------------------------===//
#include "Wave64Rewrite.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/FormatVariadic.h"
#include <algorithm>
#include <functional>
#include <vector>

using namespace pk;
using namespace pk::hip;
using namespace clang;

void Wave64Rewriter::shuffle(const W64Site &S, bool Logical) {
  const auto *CE = cast<CallExpr>(S.S);
  llvm::StringRef Name = S.Name;
  bool Sync = Name.ends_with("_sync");
  unsigned B = Sync ? 1 : 0;
  unsigned NArgs = explicitArgs(CE);
  if (NArgs < B + 2)
    return;
  if (Sync)
    checkMask(CE, Name);
  std::string New = Sync ? Name.drop_back(5).str() : Name.str();
  RuleId Rule = Logical ? RuleId::PK2001 : RuleId::PK2020;
  std::string Why =
      Logical ? llvm::formatv("{0}(mask, v, x[, w]) -> {1}(v, x, w): HIP "
                              "shuffles have no mask and default to the "
                              "64-lane wave; an explicit width keeps 32-lane "
                              "segments",
                              Name, New)
                    .str()
              : llvm::formatv("{0}(mask, v, x[, w]) -> {1}(v, x, 64): the "
                              "kernel uses native 64-lane warps; HIP "
                              "shuffles have no mask",
                              Name, New)
                    .str();
  if (Sync) {
    if (!TC.replace(calleeRange(CE), New, Rule, Why))
      return;
    removeLeadingArg(CE, Rule, Why);
  }
  if (Logical && (Name == "__shfl_sync" || Name == "__shfl")) {
    // CUDA takes the source lane modulo the width; ROCm before 5.7 does
    // not wrap it into the segment.
    unsigned Width = 32;
    bool WidthKnown = true;
    if (NArgs >= B + 3) {
      Expr::EvalResult R;
      const Expr *W = CE->getArg(B + 2);
      if (!W->isValueDependent() && W->EvaluateAsInt(R, TC.Ctx()))
        Width = R.Val.getInt().getZExtValue();
      else
        WidthKnown = false;
    }
    const Expr *Src = CE->getArg(B + 1);
    Expr::EvalResult R;
    bool ConstInRange = WidthKnown && !Src->isValueDependent() &&
                        Src->EvaluateAsInt(R, TC.Ctx()) &&
                        R.Val.getInt().isNonNegative() &&
                        R.Val.getInt().getZExtValue() < Width;
    if (!ConstInRange) {
      std::string Wrap = WidthKnown ? llvm::formatv(" & {0}", Width - 1).str()
                                    : " % (" + TC.text(CE->getArg(B + 2)) + ")";
      TC.insert(Src->getBeginLoc(), "(", Rule,
                "source lane wrapped into the segment as CUDA does");
      TC.insert(endOfToken(Src), ")" + Wrap, Rule,
                "source lane wrapped into the segment as CUDA does");
    }
  }
  if (NArgs == B + 2)
    TC.insert(CE->getRParenLoc(), Logical ? ", 32" : ", 64", Rule,
              Logical ? "explicit 32-lane width: HIP's default width is "
                        "the 64-lane wave"
                      : "explicit 64-lane width: the whole wave is the "
                        "native warp");
}

void Wave64Rewriter::unrolled(const W64Site &S) {
  // v += __shfl_down_sync(FULL, v, 16); -> the same step with offset 32
  // first, in its HIP form.
  const Stmt *St = S.S;
  const CallExpr *CE = nullptr;
  std::function<void(const Stmt *)> F = [&](const Stmt *X) {
    if (!X || CE)
      return;
    if (const auto *C = dyn_cast<CallExpr>(X)) {
      const FunctionDecl *FD = C->getDirectCallee();
      if (FD && FD->getIdentifier() && FD->getName() == S.Name) {
        CE = C;
        return;
      }
    }
    for (const Stmt *K : X->children())
      F(K);
  };
  F(St);
  if (!CE || !St->getBeginLoc().isFileID() || !CE->getBeginLoc().isFileID())
    return;
  bool Sync = llvm::StringRef(S.Name).ends_with("_sync");
  unsigned Bi = Sync ? 1 : 0;
  unsigned SB = SM().getFileOffset(St->getBeginLoc());
  std::string Text = TC.text(St->getSourceRange());
  bool Bad = false;
  auto Rel = [&](SourceLocation L) -> unsigned {
    L = SM().getFileLoc(L);
    unsigned O = SM().getFileOffset(L);
    if (O < SB || O - SB > Text.size()) {
      Bad = true;
      return 0;
    }
    return O - SB;
  };
  auto EndOf = [&](const Expr *X) {
    return Lexer::getLocForEndOfToken(SM().getFileLoc(X->getEndLoc()), 0, SM(),
                                      LO());
  };
  struct Sub {
    unsigned Off, Len;
    std::string New;
  };
  std::vector<Sub> Subs;
  const Expr *Callee = CE->getCallee()->IgnoreParenImpCasts();
  unsigned CO = Rel(Callee->getBeginLoc());
  unsigned CL = Lexer::MeasureTokenLength(
      SM().getFileLoc(Callee->getBeginLoc()), SM(), LO());
  Subs.push_back(
      {CO, CL, Sync ? llvm::StringRef(S.Name).drop_back(5).str() : S.Name});
  if (Sync)
    Subs.push_back(
        {Rel(CE->getArg(0)->getBeginLoc()),
         Rel(CE->getArg(1)->getBeginLoc()) - Rel(CE->getArg(0)->getBeginLoc()),
         ""});
  const Expr *OE = CE->getArg(Bi + 1);
  unsigned OO = Rel(OE->getBeginLoc());
  unsigned OL = Rel(EndOf(OE)) - OO;
  Subs.push_back({OO, OL, "32"});
  if (explicitArgs(CE) == Bi + 2)
    Subs.push_back({Rel(CE->getRParenLoc()), 0, ", 64"});
  else {
    const Expr *WE = CE->getArg(Bi + 2);
    unsigned WO = Rel(WE->getBeginLoc());
    unsigned WL = Rel(EndOf(WE)) - WO;
    Subs.push_back({WO, WL, "64"});
  }
  if (Bad)
    return;
  std::sort(Subs.begin(), Subs.end(),
            [](const Sub &A2, const Sub &B2) { return A2.Off > B2.Off; });
  for (const Sub &X : Subs)
    if (X.Off + X.Len <= Text.size())
      Text.replace(X.Off, X.Len, X.New);
  // Indentation of the statement's line.
  std::string File = TC.fileOf(St->getBeginLoc());
  llvm::StringRef Buf = TC.contents(File);
  size_t LS = Buf.take_front(SB).rfind('\n');
  LS = LS == llvm::StringRef::npos ? 0 : LS + 1;
  llvm::StringRef Indent = Buf.slice(LS, SB);
  if (!Indent.trim().empty())
    Indent = "";
  TC.insert(St->getBeginLoc(), Text + ";\n" + Indent.str(), RuleId::PK2020,
            "native 64-lane warps: the unrolled reduction gains the "
            "offset-32 step");
}
