//===- Wave64LoopBounds.cpp - reduction and scan loops over 32 lanes ------===//
// Rules: PK2020, PK2021, PK2106
//
// Loops whose variable is a shuffle offset: a full-warp reduction (16 .. 1,
// halving), a sub-warp reduction (<= 8 .. 1), a full-warp scan (1 .. 16,
// doubling), or an index over the warps of a block.  Full-warp loops cover
// 32 lanes (class 6, PK2106); native warps start them at 32 or bound them
// by 64 (PK2021).  Unrolled chains of shuffles with offsets 16, 8, 4, 2, 1
// are the same reduction written out; native warps add the offset-32 step
// (PK2020).
//
//===----------------------------------------------------------------------===//
#include "Wave64Internal.h"
#include "pk/ASTUtil.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include "llvm/Support/FormatVariadic.h"

using namespace pk;
using namespace pk::w64;
using namespace clang;

static bool isVarRef(const Expr *E, const VarDecl *V) {
  const auto *D =
      dyn_cast_or_null<DeclRefExpr>(E ? E->IgnoreParenImpCasts() : nullptr);
  return D && D->getDecl() == V;
}

void Walker::forStmt(const ForStmt *FS) {
  stmt(FS->getInit());
  // The loop variable and its start.
  const VarDecl *V = nullptr;
  const Expr *InitE = nullptr;
  if (const auto *DS = dyn_cast_or_null<DeclStmt>(FS->getInit())) {
    if (DS->isSingleDecl())
      if (const auto *VD = dyn_cast<VarDecl>(DS->getSingleDecl())) {
        V = VD;
        InitE = VD->getInit();
      }
  } else if (const auto *BO = dyn_cast_or_null<BinaryOperator>(FS->getInit())) {
    if (BO->getOpcode() == BO_Assign)
      if (const auto *DRE =
              dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts())) {
        V = dyn_cast<VarDecl>(DRE->getDecl());
        InitE = BO->getRHS();
      }
  }
  unsigned Kind = 0;
  if (V && InitE) {
    Kind = loopKind(FS, V, InitE);
    if (Kind) {
      VarInfo &VI = I.Vars[V];
      if (VI.LoopKind != Kind) {
        VI.LoopKind = Kind;
        I.Changed = true;
      }
    }
  }
  Loops.push_back(FS);
  if (FS->getCond())
    eval(FS->getCond());
  if (FS->getInc() && !Kind)
    eval(FS->getInc());
  stmt(FS->getBody());
  Loops.pop_back();
}

void Walker::loopStep(const ForStmt *FS, const VarDecl *V, bool &Halve,
                      bool &Double) {
  // v >>= 1, v /= 2, v = v >> 1, v = v / 2; v <<= 1, v *= 2, v += v, ...
  const Expr *Inc = FS->getInc();
  if (!Inc)
    return;
  const auto *BO = dyn_cast<BinaryOperator>(Inc->IgnoreParenImpCasts());
  if (!BO)
    return;
  Val R = peek(BO->getRHS());
  if (!isVarRef(BO->getLHS(), V))
    return;
  BinaryOperatorKind Op = BO->getOpcode();
  if ((Op == BO_ShrAssign && R.HasC && R.C == 1) ||
      (Op == BO_DivAssign && R.HasC && R.C == 2))
    Halve = true;
  if ((Op == BO_ShlAssign && R.HasC && R.C == 1) ||
      (Op == BO_MulAssign && R.HasC && R.C == 2) ||
      (Op == BO_AddAssign && isVarRef(BO->getRHS(), V)))
    Double = true;
  if (Op != BO_Assign)
    return;
  const auto *In =
      dyn_cast<BinaryOperator>(BO->getRHS()->IgnoreParenImpCasts());
  if (!In)
    return;
  Val R2 = peek(In->getRHS());
  if (isVarRef(In->getLHS(), V) && R2.HasC &&
      ((In->getOpcode() == BO_Shr && R2.C == 1) ||
       (In->getOpcode() == BO_Div && R2.C == 2)))
    Halve = true;
  if (isVarRef(In->getLHS(), V) && R2.HasC &&
      ((In->getOpcode() == BO_Shl && R2.C == 1) ||
       (In->getOpcode() == BO_Mul && R2.C == 2)))
    Double = true;
}

unsigned Walker::loopKind(const ForStmt *FS, const VarDecl *V,
                          const Expr *InitE) {
  Val IV = peek(InitE);
  bool Halve = false, Double = false;
  loopStep(FS, V, Halve, Double);
  const auto *C = dyn_cast_or_null<BinaryOperator>(
      FS->getCond() ? FS->getCond()->IgnoreParenImpCasts() : nullptr);
  if (!C)
    return 0;
  // The bound, with the loop variable on the left.
  const Expr *Other = nullptr;
  BinaryOperatorKind Op = C->getOpcode();
  if (isVarRef(C->getLHS(), V))
    Other = C->getRHS();
  else if (isVarRef(C->getRHS(), V)) {
    Other = C->getLHS();
    Op = BinaryOperator::reverseComparisonOp(Op);
  }
  if (!Other)
    return 0;
  unsigned Kind = 0;
  Val O = peek(Other);
  if (Halve && ((Op == BO_GT && (O.Kind & K_ZERO)) ||
                (Op == BO_GE && (O.Kind & K_ONE)) ||
                (Op == BO_NE && (O.Kind & K_ZERO)))) {
    if (IV.Kind & (K_LIT16 | K_HALFW)) {
      Kind = K_RED;
      claim(IV, 32, "start of a full-warp reduction");
      hazard(W64Class::LoopBound, FS->getBeginLoc(),
             llvm::formatv("reduction loop starting at '{0}' covers 32 "
                           "lanes; a 64-lane wave needs the offset-32 "
                           "step too",
                           text(InitE))
                 .str());
    } else if (IV.HasC && IV.C > 0 && IV.C <= 8 && !(IV.C & (IV.C - 1)))
      Kind = K_SUBRED;
  }
  if (Double && (IV.Kind & K_ONE) &&
      ((Op == BO_LT && is32(O)) ||
       (Op == BO_LE && (O.Kind & (K_LIT16 | K_HALFW))))) {
    Kind = K_SCAN;
    claim(O, Op == BO_LT ? 64 : 32, "bound of a full-warp scan");
    hazard(
        W64Class::LoopBound, FS->getBeginLoc(),
        llvm::formatv("scan loop bounded by '{0}' covers 32 lanes", text(Other))
            .str());
  }
  if (!Kind && (O.Kind & K_NWARPS) && IV.HasC && IV.C >= 0 && IV.C <= 1)
    Kind = K_WIDX;
  return Kind;
}

// ---- unrolled shuffle chains ------------------------------------------------

/// The shfl_down / shfl_xor calls under \p S: the last one and how many.
static void offsetShuffles(const Stmt *S, const CallExpr *&Found, int &N) {
  if (!S)
    return;
  if (const auto *CE = dyn_cast<CallExpr>(S)) {
    llvm::StringRef Nm = calleeName(CE);
    if (Nm == "__shfl_down_sync" || Nm == "__shfl_xor_sync" ||
        Nm == "__shfl_down" || Nm == "__shfl_xor") {
      ++N;
      Found = CE;
    }
  }
  for (const Stmt *C : S->children())
    offsetShuffles(C, Found, N);
}

/// The one shfl_down / shfl_xor of statement \p S when its offset is a
/// constant (\p Off), else null.
static const CallExpr *constShuffle(const Stmt *S, ASTContext &Ctx,
                                    int64_t &Off) {
  const CallExpr *Found = nullptr;
  int N = 0;
  offsetShuffles(S, Found, N);
  if (N != 1)
    return nullptr;
  unsigned B = calleeName(Found).ends_with("_sync") ? 1 : 0;
  if (Found->getNumArgs() < B + 2)
    return nullptr;
  Expr::EvalResult R;
  const Expr *OE = Found->getArg(B + 1);
  if (OE->isValueDependent() || !OE->EvaluateAsInt(R, Ctx))
    return nullptr;
  Off = R.Val.getInt().getExtValue();
  return Found;
}

void Walker::unrolledChains(const CompoundStmt *CS) {
  // v += __shfl_down_sync(m, v, 16); ... (8, 4, 2, 1): five statements in a
  // row, one shuffle each, the same intrinsic.
  std::vector<const Stmt *> Body(CS->body_begin(), CS->body_end());
  for (size_t K = 0; K + 4 < Body.size(); ++K) {
    int64_t O0;
    const CallExpr *C0 = constShuffle(Body[K], I.Ctx, O0);
    if (!C0 || O0 != 16)
      continue;
    std::vector<const CallExpr *> Chain{C0};
    int64_t Want = 8;
    for (size_t J = K + 1; J < Body.size() && Want >= 1; ++J, Want /= 2) {
      int64_t O;
      const CallExpr *C = constShuffle(Body[J], I.Ctx, O);
      if (!C || O != Want || calleeName(C) != calleeName(C0))
        break;
      Chain.push_back(C);
    }
    if (Chain.size() != 5)
      continue;
    for (const CallExpr *C : Chain)
      I.ChainOK.insert(C);
    if (!I.SiteStmts.count(Body[K])) {
      I.SiteStmts.insert(Body[K]);
      SourceLocation L = Body[K]->getBeginLoc();
      if (L.isFileID()) {
        W64Site &S = I.site(W64Site::UnrolledShfl, Body[K], Ent);
        S.Name = calleeName(C0).str();
      } else
        block(L, "an unrolled shuffle chain written in a macro");
    }
    hazard(W64Class::LoopBound, Body[K]->getBeginLoc(),
           "unrolled shuffle steps 16, 8, 4, 2, 1 reduce 32 lanes only");
  }
}
