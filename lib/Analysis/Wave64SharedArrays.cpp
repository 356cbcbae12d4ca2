//===- Wave64SharedArrays.cpp - memory indexed by lane and warp numbers ---===//
// Rules: PK2021, PK2105
//
// Memory accesses: which memory a pointer or array lives in, and what its
// index depends on.  Shared arrays indexed by a warp id or a lane id hold
// one slot per 32-lane warp or lane (class 5, PK2105): native warps keep
// them when a warp id indexes them (fewer warps) or when the array has 64
// lane slots (a size spelled with the warp width is widened, PK2021).
// Global memory addressed or written with values that depend on the warp
// numbering, and lane or warp numbers kept in shared memory, block native
// warps.
//
//===----------------------------------------------------------------------===//
#include "Wave64Internal.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/Support/FormatVariadic.h"

using namespace pk;
using namespace pk::w64;
using namespace clang;

// ---- where memory lives -----------------------------------------------------

Space Walker::spaceOfVar(const VarDecl *VD) {
  if (!VD)
    return Space::Unknown;
  if (VD->hasAttr<CUDASharedAttr>())
    return Space::Shared;
  QualType T = VD->getType();
  if (T->isArrayType())
    return VD->hasLocalStorage() ? Space::Local : Space::Global;
  if (T->isPointerType() || T->isReferenceType()) {
    // What was assigned to the pointer; global when unknown or mixed.
    auto It = I.Vars.find(VD);
    if (It != I.Vars.end() && It->second.Spaces) {
      uint8_t S = It->second.Spaces;
      auto Has = [&](Space X) { return S & (1u << unsigned(X)); };
      if (Has(Space::Global) || Has(Space::Unknown))
        return Space::Global;
      if (S == (1u << unsigned(Space::Shared)))
        return Space::Shared;
      if (S == (1u << unsigned(Space::Local)))
        return Space::Local;
      return Space::Global;
    }
    return Space::Global;
  }
  if (VD->hasLocalStorage())
    return Space::Local;
  return Space::Global;
}

const VarDecl *Walker::rootVar(const Expr *E) {
  E = E->IgnoreParenCasts();
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E))
    return rootVar(ASE->getBase());
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return dyn_cast<VarDecl>(DRE->getDecl());
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    if (BO->isAdditiveOp())
      return rootVar(BO->getLHS()->getType()->isPointerType() ? BO->getLHS()
                                                              : BO->getRHS());
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    if (UO->getOpcode() == UO_AddrOf || UO->getOpcode() == UO_Deref)
      return rootVar(UO->getSubExpr());
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return rootVar(ME->getBase());
  return nullptr;
}

Space Walker::spaceOf(const Expr *E) {
  E = E->IgnoreParenCasts();
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E))
    return spaceOf(ASE->getBase());
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return spaceOfVar(dyn_cast<VarDecl>(DRE->getDecl()));
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->isAdditiveOp())
      return spaceOf(BO->getLHS()->getType()->isPointerType() ? BO->getLHS()
                                                              : BO->getRHS());
    if (BO->getOpcode() == BO_Comma)
      return spaceOf(BO->getRHS());
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->getOpcode() == UO_AddrOf || UO->getOpcode() == UO_Deref)
      return spaceOf(UO->getSubExpr());
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return spaceOf(ME->getBase());
  if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
    Space A = spaceOf(CO->getTrueExpr()), B = spaceOf(CO->getFalseExpr());
    return A == B ? A : Space::Global;
  }
  if (isa<CXXThisExpr>(E))
    return Space::Local;
  return Space::Global;
}

bool Walker::isPerWarpIndex(const Val &V) {
  return (V.Kind & (K_LANE | K_WARP | K_WARPM1 | K_WIDX)) != 0;
}

bool Walker::arrayDim(const VarDecl *VD, unsigned Dim, uint64_t &N,
                      const Expr *&SizeE) {
  SizeE = nullptr;
  QualType T = VD->getType();
  for (unsigned D = 0;; ++D) {
    const auto *CAT = I.Ctx.getAsConstantArrayType(T);
    if (!CAT) {
      if (const auto *DAT = dyn_cast<DependentSizedArrayType>(T.getTypePtr())) {
        if (D == Dim) {
          SizeE = DAT->getSizeExpr();
          return false;
        }
        T = DAT->getElementType();
        continue;
      }
      return false;
    }
    if (D == Dim) {
      N = CAT->getSize().getZExtValue();
      SizeE = CAT->getSizeExpr();
      break;
    }
    T = CAT->getElementType();
  }
  if (!SizeE) {
    // The size as written, from the declaration's type.
    if (TypeSourceInfo *TSI = VD->getTypeSourceInfo()) {
      TypeLoc TL = TSI->getTypeLoc();
      for (unsigned D = 0; !TL.isNull(); ++D) {
        auto AT = TL.getAs<ArrayTypeLoc>();
        if (!AT) {
          TL = TL.getNextTypeLoc();
          if (D > 8)
            break;
          --D;
          continue;
        }
        if (D == Dim) {
          SizeE = AT.getSizeExpr();
          break;
        }
        TL = AT.getElementLoc();
      }
    }
  }
  return true;
}

unsigned Walker::subscriptDim(const ArraySubscriptExpr *ASE) {
  unsigned D = 0;
  const Expr *B = ASE->getBase()->IgnoreParenImpCasts();
  while (const auto *In = dyn_cast<ArraySubscriptExpr>(B)) {
    ++D;
    B = In->getBase()->IgnoreParenImpCasts();
  }
  return D;
}

// ---- accesses ---------------------------------------------------------------

Val Walker::subscript(const ArraySubscriptExpr *ASE, const Val *Stored) {
  Val B = eval(ASE->getBase());
  Val X = eval(ASE->getIdx());
  if (X.Kind & K_WARP)
    if (const VarDecl *VD = rootVar(ASE->getBase()))
      if (VD->hasAttr<CUDASharedAttr>() &&
          I.PerWarp.insert({VD, subscriptDim(ASE)}).second)
        I.Changed = true;
  if (Rec)
    access(ASE, ASE->getBase(), B, ASE->getIdx(), X, Stored);
  if (Rec && Rel)
    fragmentElement(ASE, X);
  // Shared data may hold every warp's values (per-warp slots, a tree):
  // a warp's sum of it can stand for the block (see warpAggregateStore).
  Val R;
  if (!Stored && spaceOf(ASE->getBase()) == Space::Shared)
    R.Dep = D_SHARED;
  return R;
}

void Walker::access(const Expr *Whole, const Expr *B, const Val &BaseV,
                    const Expr *IdxE, const Val &Idx, const Val *Stored) {
  if (!Rec)
    return;
  Space S = spaceOf(B);
  if (S == Space::Global)
    globalAccess(Whole, BaseV, IdxE, Idx, Stored);
  else if (S == Space::Shared)
    sharedAccess(Whole, B, IdxE, Idx, Stored);
}

bool Walker::readsPerWarpSlot(const Expr *E) {
  if (!E)
    return false;
  E = E->IgnoreParenImpCasts();
  if (const auto *A = dyn_cast<ArraySubscriptExpr>(E)) {
    const VarDecl *VD = rootVar(A->getBase());
    if (VD && VD->hasAttr<CUDASharedAttr>()) {
      Val IV = peek(A->getIdx());
      if (IV.Kind & K_WARP)
        return true;
    }
  }
  for (const Stmt *C : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(C))
      if (readsPerWarpSlot(CE))
        return true;
  return false;
}

void Walker::globalAccess(const Expr *Whole, const Val &BaseV, const Expr *IdxE,
                          const Val &Idx, const Val *Stored) {
  if (Stored) {
    warpAggregateStore(Whole, *Stored);
    perThreadWarpResult(Whole, *Stored);
  }
  unsigned Dep = (BaseV.Dep | Idx.Dep);
  if (Dep & D_UNSAFE) {
    // rank + the warp's exclusive offset: a block-level rank.
    bool RankOK = false;
    if ((Dep & D_RANK) && !(Dep & (D_UNSAFE & ~(D_RANK | D_WARP))))
      RankOK = readsPerWarpSlot(IdxE ? IdxE : Whole);
    if (!RankOK)
      block(Whole->getBeginLoc(),
            llvm::formatv("'{0}' addresses global memory with a value "
                          "that depends on the 32-lane warp numbering",
                          text(Whole))
                .str());
  }
  if (Stored && (Stored->Dep & D_UNSAFE))
    block(Whole->getBeginLoc(),
          llvm::formatv("'{0}' stores a value that depends on the 32-lane "
                        "warp numbering in global memory",
                        text(Whole))
              .str());
  else if (Stored && !LaneConds.empty())
    block(Whole->getBeginLoc(),
          llvm::formatv("'{0}' is stored only by the lanes that '{1}' "
                        "selects by their place in a 32-lane warp",
                        text(Whole), text(LaneConds.back()))
              .str());
}

bool Walker::oneLanePerWarp(const Expr *C, bool Neg) {
  if (!C)
    return false;
  if (firstWarpOnly(C, Neg))
    return true;
  const Expr *E = C->IgnoreParenImpCasts();
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->getOpcode() == (Neg ? BO_LOr : BO_LAnd))
      return oneLanePerWarp(BO->getLHS(), Neg) ||
             oneLanePerWarp(BO->getRHS(), Neg);
    if (!BO->isComparisonOp())
      return false;
    BinaryOperatorKind Op = BO->getOpcode();
    if (Neg)
      Op = BinaryOperator::negateComparisonOp(Op);
    Val L = peek(BO->getLHS()), R = peek(BO->getRHS());
    // lane == c, lane == leader: one lane of each warp.
    return Op == BO_EQ && ((L.Kind & K_LANE) || (R.Kind & K_LANE));
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    if (UO->getOpcode() == UO_LNot)
      return oneLanePerWarp(UO->getSubExpr(), !Neg);
  // 'if (lane) return;' leaves lane 0
  return Neg && (peek(E).Kind & K_LANE);
}

void Walker::perThreadWarpResult(const Expr *Site, const Val &Stored) {
  if (!Rec)
    return;
  for (const auto &[G, Neg] : Guards)
    if (oneLanePerWarp(G, Neg))
      return;
  if (Stored.Dep & D_VOTE) {
    block(Site->getBeginLoc(),
          llvm::formatv("'{0}' stores a vote's answer (__any, __all) from "
                        "every lane: each thread would get the answer of 64 "
                        "lanes instead of its 32-lane warp's",
                        text(Site))
              .str());
    return;
  }
  for (const auto &[G, Neg] : Guards) {
    Val V = peek(G);
    if (V.Dep & D_VOTE) {
      block(Site->getBeginLoc(),
            llvm::formatv("'{0}' is stored by the lanes of warps for which "
                          "'{1}', a vote across the lanes of a warp, holds: "
                          "under 64-lane warps it is decided for 64 lanes "
                          "instead of 32",
                          text(Site), text(G))
                .str());
      return;
    }
  }
}

bool Walker::firstWarpOnly(const Expr *C, bool Neg) {
  if (!C)
    return false;
  const Expr *E = C->IgnoreParenImpCasts();
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    // a && b (or !(a || b)) holds only where both hold
    if (BO->getOpcode() == (Neg ? BO_LOr : BO_LAnd))
      return firstWarpOnly(BO->getLHS(), Neg) ||
             firstWarpOnly(BO->getRHS(), Neg);
    if (!BO->isComparisonOp())
      return false;
    Val L = peek(BO->getLHS()), R = peek(BO->getRHS());
    BinaryOperatorKind Op = BO->getOpcode();
    if (Neg)
      Op = BinaryOperator::negateComparisonOp(Op);
    if (!(L.Kind & (K_TID | K_WARP)) && (R.Kind & (K_TID | K_WARP))) {
      std::swap(L, R);
      Op = BinaryOperator::reverseComparisonOp(Op);
    }
    // threadIdx.x == 0, tid < 32, warp == 0: a bounded set of threads at the
    // start of the block, not one lane of every warp.
    if (!(L.Kind & (K_TID | K_WARP)) || (L.Kind & K_LANE) || !R.HasC)
      return false;
    return Op == BO_EQ || Op == BO_LT || Op == BO_LE;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    if (UO->getOpcode() == UO_LNot)
      return firstWarpOnly(UO->getSubExpr(), !Neg);
  // 'if (tid) return;' leaves thread 0
  Val V = peek(E);
  return Neg && (V.Kind & (K_TID | K_WARP)) && !(V.Kind & K_LANE);
}

void Walker::warpAggregateStore(const Expr *Site, const Val &Stored) {
  if (!Rec || !(Stored.Dep & D_WAGG) || (Stored.Dep & D_SHARED))
    return;
  for (const auto &[G, Neg] : Guards)
    if (firstWarpOnly(G, Neg)) {
      block(Site->getBeginLoc(),
            llvm::formatv("'{0}' writes a value combined across one warp's "
                          "lanes only from the threads '{1}' selects: under "
                          "64-lane warps it combines 64 lanes instead of 32",
                          text(Site), text(G))
                .str());
      return;
    }
}

void Walker::sharedAccess(const Expr *Whole, const Expr *B, const Expr *IdxE,
                          const Val &Idx, const Val *Stored) {
  if (Stored && (Stored->Dep & (D_MASK)))
    block(Whole->getBeginLoc(),
          llvm::formatv("'{0}' keeps a lane mask in shared memory", text(Whole))
              .str());
  else if (Stored && (Stored->Dep & (D_LANE | D_WARP | D_NWARPS | D_W)))
    // Read back, it would lose what it is; keep the layout instead.
    block(Whole->getBeginLoc(),
          llvm::formatv("'{0}' keeps a lane or warp number in shared memory",
                        text(Whole))
              .str());
  if (!IdxE)
    return;
  const VarDecl *VD = rootVar(B);
  const auto *ASE = dyn_cast<ArraySubscriptExpr>(Whole->IgnoreParenImpCasts());
  if (foldsNextWarp(Whole, VD, ASE, IdxE))
    return;
  if (!(Idx.Dep & (D_LANE | D_WARP | D_NWARPS | D_MASK | D_RANK | D_COUNT))) {
    // A per-warp slot read at an index that is not a warp id, a loop
    // over this kernel's warps or slot 0: the slots it reads depend on
    // how many 32-lane warps there are.
    if (!Stored && VD && ASE && I.PerWarp.count({VD, subscriptDim(ASE)}) &&
        !(Idx.HasC && Idx.C == 0))
      block(Whole->getBeginLoc(),
            llvm::formatv("'{0}' reads per-warp slots over a range that is "
                          "not the warp count of this kernel",
                          text(Whole))
                .str());
    return;
  }
  if (!isPerWarpIndex(Idx) || (Idx.Dep & (D_MASK | D_RANK | D_COUNT))) {
    block(Whole->getBeginLoc(),
          llvm::formatv("'{0}' indexes shared memory with arithmetic on the "
                        "lane or warp id",
                        text(Whole))
              .str());
    return;
  }
  if (VD && ASE)
    perWarpSlots(Whole, VD, ASE, Idx);
}

bool Walker::foldsNextWarp(const Expr *Whole, const VarDecl *VD,
                           const ArraySubscriptExpr *ASE, const Expr *IdxE) {
  // tid + W: the first warp folds the second warp's values in.
  const auto *BO = dyn_cast<BinaryOperator>(IdxE->IgnoreParenImpCasts());
  if (!BO || BO->getOpcode() != BO_Add)
    return false;
  Val L = peek(BO->getLHS()), R = peek(BO->getRHS());
  const Val *W = is32(R) ? &R : is32(L) ? &L : nullptr;
  const Val *T = W == &R ? &L : &R;
  if (!W || !(T->Kind & K_TID) || !((W->Kind & K_W) || Rel))
    return false;
  uint64_t N = 0;
  const Expr *SE;
  bool Known = VD && ASE && arrayDim(VD, subscriptDim(ASE), N, SE);
  if (Known && N >= 128)
    claim(*W, 64, "index of the second warp's half");
  else
    block(Whole->getBeginLoc(),
          llvm::formatv("'{0}' folds the values of the next warp: with "
                        "64-lane warps the array needs 128 elements",
                        text(Whole))
              .str());
  return true;
}

void Walker::perWarpSlots(const Expr *Whole, const VarDecl *VD,
                          const ArraySubscriptExpr *ASE, const Val &Idx) {
  uint64_t N = 0;
  const Expr *SE = nullptr;
  bool Known = arrayDim(VD, subscriptDim(ASE), N, SE);
  if (I.SharedHazard.insert(VD).second && Rel) {
    std::string Sz = SE ? text(SE) : std::to_string(N);
    hazard(W64Class::PerWarpArray, VD->getLocation(),
           llvm::formatv("per-warp shared array '{0}[{1}]' is indexed by "
                         "the {2} id: it holds one slot per 32-lane warp or "
                         "lane; on 64-lane waves the warp and lane numbering "
                         "differ",
                         VD->getName(), Sz,
                         (Idx.Kind & K_LANE) ? "lane" : "warp")
               .str());
  }
  if (!(Idx.Kind & K_LANE))
    return; // fewer warps under native: the array is large enough
  Val SV = SE ? peek(SE) : Val();
  if (SE && is32(SV))
    claim(SV, 64, "per-warp array size");
  else if (!Known || N < 64)
    block(Whole->getBeginLoc(),
          llvm::formatv("'{0}' is indexed by the lane id but holds fewer "
                        "than 64 elements",
                        text(Whole))
              .str());
}
