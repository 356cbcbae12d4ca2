//===- Wave64ArithIdioms.cpp - lane and warp arithmetic -------------------===//
// Rules: PK2021, PK2103
//
// The operators: lane ids (`tid & 31`, `tid % 32`), warp ids (`tid / 32`,
// `tid >> 5`), warps per block (`blockDim.x / 32`, `(n + 31) / 32`), the
// half width and the width minus one, and the comparisons of lane and warp
// numbers.  Each idiom a 64-lane warp can express claims its constant
// (widened under native warps, PK2021) and is a class-3 hazard (PK2103);
// arithmetic with the warp width that is no idiom blocks native warps.  The
// lane-mask forms of the operators are in Wave64MaskIdioms.cpp.
//
//===----------------------------------------------------------------------===//
#include "Wave64Internal.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include "llvm/Support/FormatVariadic.h"

using namespace pk;
using namespace pk::w64;
using namespace clang;

Val Walker::binop(const BinaryOperator *BO) {
  if (BO->isAssignmentOp())
    return assignment(BO);
  BinaryOperatorKind Op = BO->getOpcode();
  Val L = eval(BO->getLHS());
  Val R = eval(BO->getRHS());
  Val V;
  V.Dep = L.Dep | R.Dep;
  if ((L.Kind & K_CONST) && (R.Kind & K_CONST))
    V.Kind = K_CONST;
  switch (Op) {
  case BO_And:
    andOp(BO, L, R, V);
    break;
  case BO_Or:
  case BO_Xor:
    maskOrXor(BO, L, R, V);
    break;
  case BO_Rem:
    if (tidish(L) && is32(R))
      laneId(BO, V, R, 64, "assumes 32-lane warps");
    break;
  case BO_Div:
    divOp(BO, L, R, V);
    break;
  case BO_Shr:
    shrOp(BO, L, R, V);
    break;
  case BO_Shl:
    laneBitShl(BO, L, R, V);
    break;
  case BO_Sub:
    subOp(BO, L, R, V);
    break;
  case BO_Add:
    addOp(L, R, V);
    break;
  case BO_Mul:
    if (L.HasC && R.HasC) {
      V.HasC = true;
      V.C = L.C * R.C;
    }
    break;
  case BO_LT:
  case BO_GT:
  case BO_LE:
  case BO_GE:
  case BO_EQ:
  case BO_NE:
    // An accepted test of a mask or a count is the same under both
    // strategies (mask == 0, mask == all lanes, count == warp width).
    if (compare(BO, L, R))
      V.Dep &= ~(D_MASK | D_COUNT | D_RANK);
    V.Kind = 0;
    break;
  case BO_Comma:
    V = R;
    break;
  default:
    V.Kind &= K_CONST;
    break;
  }
  if (!(V.Kind & K_CONST))
    V.HasC = V.HasC && (V.Kind & (K_HALFW | K_W1));
  mixedWarpWidth(BO, L, R, V);
  return V;
}

Val Walker::assignment(const BinaryOperator *BO) {
  BinaryOperatorKind Op = BO->getOpcode();
  Val R = eval(BO->getRHS());
  const Expr *LHS = BO->getLHS()->IgnoreParenImpCasts();
  Val Stored = R;
  if (Op != BO_Assign) {
    // x op= y: what x and y depend on; a mask only as mask &|^ mask.
    Val L = peek(LHS);
    Stored.Dep |= L.Dep;
    Stored.Kind = 0;
    Stored.Tok = nullptr;
    if ((Op == BO_AndAssign || Op == BO_OrAssign || Op == BO_XorAssign) &&
        (L.Kind & K_MASK) && (R.Kind & K_MASK))
      Stored.Kind = K_MASK;
  }
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(LHS))
    subscript(ASE, &Stored);
  else if (const auto *UO = dyn_cast<UnaryOperator>(LHS);
           UO && UO->getOpcode() == UO_Deref) {
    Val P = eval(UO->getSubExpr());
    Val None;
    access(UO, UO->getSubExpr(), P, nullptr, None, &Stored);
  } else if (isa<DeclRefExpr>(LHS))
    assignTo(LHS, BO, Stored, Op == BO_Assign ? BO->getRHS() : nullptr);
  else
    eval(LHS);
  if (Rec)
    volatileStep(BO);
  return Stored;
}

// ---- lane ids, warp ids, warp counts ----------------------------------------

void Walker::laneId(const BinaryOperator *BO, Val &V, const Val &Lit,
                    uint64_t Native, const char *Msg) {
  V.Dep = (V.Dep & ~(D_TID | D_W)) | D_LANE;
  V.Kind = K_LANE;
  claim(Lit, Native, "lane id");
  hazard(W64Class::LaneArith, BO->getOperatorLoc(),
         llvm::formatv("lane id '{0}' {1}: two 32-lane warps share a "
                       "64-lane wave, so votes and shuffles combine both",
                       text(BO), Msg)
             .str());
}

void Walker::warpId(const BinaryOperator *BO, Val &V, const Val &Lit,
                    uint64_t Native) {
  V.Dep = (V.Dep & ~(D_TID | D_W)) | D_WARP;
  V.Kind = K_WARP;
  claim(Lit, Native, "warp id");
  hazard(W64Class::LaneArith, BO->getOperatorLoc(),
         llvm::formatv("warp id '{0}' counts 32-lane warps; a 64-lane wave "
                       "holds two of them",
                       text(BO))
             .str());
}

void Walker::warpCount(const BinaryOperator *BO, const Val &L, const Val &R,
                       Val &V, uint64_t Native) {
  V.Dep = (V.Dep & ~D_W) | D_NWARPS;
  V.Kind = K_NWARPS | K_CONST;
  claim(R, Native, "warps per block");
  if (L.Kind & K_RUP) {
    Val T;
    T.Tok = L.Tok2;
    T.Kind = K_LIT31;
    claim(T, 63, "rounding up to whole warps");
  }
  hazard(W64Class::LaneArith, BO->getOperatorLoc(),
         llvm::formatv("'{0}' counts 32-lane warps; a 64-lane wave holds "
                       "two of them",
                       text(BO))
             .str());
}

// ---- the operators ----------------------------------------------------------

void Walker::andOp(const BinaryOperator *BO, const Val &L, const Val &R,
                   Val &V) {
  if (tidish(L) && is31(R))
    laneId(BO, V, R, 63, "assumes 32-lane warps");
  else if (tidish(R) && is31(L))
    laneId(BO, V, L, 63, "assumes 32-lane warps");
  else
    maskAnd(BO, L, R, V);
}

void Walker::divOp(const BinaryOperator *BO, const Val &L, const Val &R,
                   Val &V) {
  if (tidish(L) && is32(R))
    warpId(BO, V, R, 64);
  else if (is32(L) && R.HasC && R.C == 2) {
    // W / 2: half the warp width
    V.Kind = K_HALFW | K_CONST;
    V.Dep |= D_W;
    V.Tok = L.Tok;
    V.HasC = true;
    V.C = 16;
  } else if (is32(R) && !(L.Dep & (D_TID | D_LANE | D_WARP | D_MASK)) &&
             (L.Kind & (K_CONST | K_BDIM | K_RUP))) {
    warpCount(BO, L, R, V, 64);
  }
}

void Walker::shrOp(const BinaryOperator *BO, const Val &L, const Val &R,
                   Val &V) {
  if (tidish(L) && (R.Kind & K_LIT5))
    warpId(BO, V, R, 6);
  else if ((R.Kind & K_LIT5) && !(L.Dep & (D_TID | D_LANE | D_WARP | D_MASK)) &&
           (L.Kind & (K_BDIM | K_RUP)))
    warpCount(BO, L, R, V, 6);
  else
    maskShr(BO, L, R);
}

void Walker::subOp(const BinaryOperator *BO, const Val &L, const Val &R,
                   Val &V) {
  if (maskSub(BO, L, R, V))
    return;
  if (is32(L) && (R.Kind & K_ONE)) {
    // W - 1: the last lane
    V.Kind = K_W1 | K_CONST;
    V.Dep |= D_W;
    V.Tok = L.Tok;
    V.HasC = true;
    V.C = 31;
  } else if ((L.Kind & (K_WARP | K_WIDX)) && (R.Kind & K_CONST)) {
    V.Kind = K_WARPM1;
  } else if (L.HasC && R.HasC) {
    V.HasC = true;
    V.C = L.C - R.C;
  }
}

void Walker::addOp(const Val &L, const Val &R, Val &V) {
  if (((L.Kind & K_TID) && !(R.Dep & (D_UNSAFE & ~D_W))) ||
      ((R.Kind & K_TID) && !(L.Dep & (D_UNSAFE & ~D_W))))
    V.Kind |= K_GTID;
  if ((L.Kind & (K_CONST | K_BDIM)) && is31(R) && !(L.Dep & D_TID)) {
    // n + 31: rounding up to whole warps
    V.Kind = K_RUP | K_CONST;
    V.Tok2 = R.Tok;
  } else if (L.HasC && R.HasC) {
    V.HasC = true;
    V.C = L.C + R.C;
  }
}

void Walker::mixedWarpWidth(const BinaryOperator *BO, const Val &L,
                            const Val &R, const Val &V) {
  // Thread or block arithmetic with 32, 31 or 5 that is none of the idioms:
  // native warps cannot tell what it means.
  BinaryOperatorKind Op = BO->getOpcode();
  if (!Rec || !Rel ||
      (V.Kind & (K_LANE | K_WARP | K_NWARPS | K_HALFW | K_W1 | K_MASK)) ||
      !(Op == BO_Div || Op == BO_Rem || Op == BO_Shr || Op == BO_And ||
        Op == BO_Mul || Op == BO_Shl))
    return;
  auto ThreadOrBlock = [](const Val &X) {
    return (X.Kind & (K_TID | K_GTID | K_BDIM)) != 0;
  };
  auto WarpConst = [&](const Val &X) {
    return (X.Kind & (K_LIT32 | K_LIT31 | K_W | K_W1)) ||
           ((X.Kind & K_LIT5) && (Op == BO_Shr || Op == BO_Shl));
  };
  if ((ThreadOrBlock(L) && WarpConst(R)) || (ThreadOrBlock(R) && WarpConst(L)))
    block(BO->getOperatorLoc(),
          llvm::formatv("'{0}' mixes the thread index or block size with "
                        "the warp width in a way native warps do not widen",
                        text(BO))
              .str());
}

// ---- comparisons ------------------------------------------------------------

bool Walker::compare(const BinaryOperator *BO, const Val &L0, const Val &R0) {
  Val L = L0, R = R0;
  BinaryOperatorKind Op = BO->getOpcode();
  // Put the lane/warp operand on the left.
  auto Tagged = [](const Val &V) { return (V.Dep & D_CMP) != 0; };
  if (!Tagged(L) && Tagged(R)) {
    std::swap(L, R);
    Op = BinaryOperator::reverseComparisonOp(Op);
  }
  if (!Tagged(L)) {
    warpBoundCompare(BO, L, R);
    return true;
  }
  bool Good = false;
  if (L.Kind & K_LANE) {
    if (R.Kind & K_ZERO)
      Good = true;
    else if (is31(R)) {
      claim(R, 63, "the last lane");
      Good = true;
    } else if (R.Kind & (K_NWARPS | K_SCAN | K_RED | K_LANE))
      Good = true;
  } else if (L.Kind & (K_WARP | K_WIDX)) {
    if ((R.Kind & (K_ZERO | K_NWARPS)) || (R.HasC && R.C == 1 && Op == BO_GE))
      Good = true;
  } else if (L.Kind & K_MASK) {
    Good = maskCompare(BO, R);
  } else if (L.Kind & K_COUNT) {
    if (R.Kind & K_ZERO)
      Good = true;
    else if (is32(R)) {
      claim(R, 64, "lanes of a full warp");
      Good = true;
    }
  } else if (!(L.Dep & ~D_NWARPS & D_CMP) && (R.Kind & K_NWARPS)) {
    Good = true;
  }
  // (nwarps compared with a constant depends on the warp count.)
  if (!Good)
    block(BO->getOperatorLoc(),
          llvm::formatv("'{0}' depends on the 32-lane warp numbering", text(BO))
              .str());
  return Good;
}

void Walker::warpBoundCompare(const BinaryOperator *BO, const Val &L,
                              const Val &R) {
  // tid < W (the first warp), s > W (a shared-memory tree down to a warp)
  const Val *W = is32(R) ? &R : is32(L) ? &L : nullptr;
  if (!W)
    return;
  const Val *O = W == &R ? &L : &R;
  bool Tree = false;
  if (!Loops.empty() && Loops.back()->getCond() &&
      Loops.back()->getCond()->IgnoreParenImpCasts() == BO) {
    if (const auto *DRE = dyn_cast<DeclRefExpr>(
            (W == &R ? BO->getLHS() : BO->getRHS())->IgnoreParenImpCasts())) {
      const Expr *Inc = Loops.back()->getInc();
      std::string IT = Inc ? text(Inc) : "";
      llvm::StringRef IS(IT);
      Tree = IS.contains(DRE->getDecl()->getName()) &&
             (IS.contains(">>=") || IS.contains("/=") || IS.contains(">> 1") ||
              IS.contains("/ 2"));
    }
  }
  if ((O->Kind & K_TID) || Tree)
    claim(*W, 64,
          Tree ? "bound of a shared-memory tree down to one warp"
               : "threads of the first warp");
}
