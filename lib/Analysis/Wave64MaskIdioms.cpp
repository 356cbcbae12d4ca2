//===- Wave64MaskIdioms.cpp - lane masks in 32 bits -----------------------===//
// Rules: PK2022, PK2101, PK2102, PK2108
//
// Lane masks: the mask argument of the *_sync intrinsics (class 1, PK2101);
// ballot results kept in 32-bit types, __popc/__ffs/__clz of them and
// comparisons with 0xffffffff (class 2, PK2102); lane bits `1u << lane`,
// the lanes below `(1u << lane) - 1`, `__ffs(mask) - 1` (class 8, PK2108).
// Under native warps masks become 64-bit (PK2022: the types, __popcll,
// __ffsll, __clzll - 32, 1ull << lane, the full 64-lane mask); any other
// use of a mask's bits blocks native warps.
//
//===----------------------------------------------------------------------===//
#include "Wave64Internal.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/FormatVariadic.h"

using namespace pk;
using namespace pk::w64;
using namespace clang;

void Walker::checkMaskArg(const CallExpr *CE, llvm::StringRef Name,
                          const Val &M) {
  if (!Rec || !Rel)
    return;
  const Expr *ME = CE->getArg(0);
  if (M.Kind & K_FULL) {
    hazard(W64Class::Mask, ME->getBeginLoc(),
           llvm::formatv("{0}: mask {1} names lanes 0-31 only; a wave has 64 "
                         "lanes and HIP's *_sync forms need a 64-bit mask",
                         Name, text(ME))
               .str());
    return;
  }
  Expr::EvalResult R;
  if (!ME->isValueDependent() && ME->EvaluateAsInt(R, I.Ctx)) {
    hazard(W64Class::Mask, ME->getBeginLoc(),
           llvm::formatv("{0}: mask {1} is a 32-bit lane set: it names a "
                         "subset of a 32-lane warp",
                         Name, text(ME))
               .str());
    block(ME->getBeginLoc(),
          llvm::formatv("{0}: mask {1} names part of a 32-lane warp", Name,
                        text(ME))
              .str());
    return;
  }
  QualType T = ME->IgnoreParenImpCasts()->getType();
  if (!T.isNull() && T->isIntegerType() && I.Ctx.getTypeSize(T) <= 32)
    hazard(W64Class::Mask, ME->getBeginLoc(),
           llvm::formatv("{0}: mask '{1}' is a 32-bit lane set; HIP's *_sync "
                         "forms need a 64-bit mask",
                         Name, text(ME))
               .str());
}

Val Walker::maskBitCall(const CallExpr *CE, llvm::StringRef Name,
                        const std::vector<Val> &Args) {
  const Expr *Callee = CE->getCallee()->IgnoreParenImpCasts();
  if (Name == "__brev") {
    block(CE->getBeginLoc(), "__brev reverses a 32-bit lane mask");
    hazard(W64Class::Ballot, CE->getBeginLoc(),
           "__brev of a lane mask reverses 32 lanes");
    return {};
  }
  std::string New = Name == "__popc"  ? "__popcll"
                    : Name == "__ffs" ? "__ffsll"
                                      : "(__clzll";
  if (Rec) {
    I.tokenSite(Callee, Ent, New, RuleId::PK2022,
                llvm::formatv("{0} of a 64-bit lane mask is {1}", Name,
                              Name == "__clz" ? "__clzll - 32" : New)
                    .str());
    if (Name == "__clz") {
      // close the parenthesis: (__clzll(x) - 32)
      SourceLocation RP = SM().getSpellingLoc(CE->getRParenLoc());
      if (I.Src.isUserLoc(RP)) {
        W64Site &S = I.site(W64Site::Token, nullptr, I.entityFor(RP, Ent));
        S.Loc = RP.getLocWithOffset(1);
        S.Len = 0;
        S.Native = " - 32)";
        S.Rule = RuleId::PK2022;
        S.Why = "__clz(m) counts from bit 31: __clzll(m) - 32 counts from "
                "bit 31 of the 64-bit mask's high end";
      }
    }
    hazard(W64Class::Ballot, CE->getBeginLoc(),
           llvm::formatv("{0}({1}) on a lane mask: 32-bit {0} sees lanes "
                         "0-31 only",
                         Name, text(CE->getArg(0)))
               .str());
  }
  Val V;
  if (Name == "__popc") {
    V.Dep = (Args[0].Kind & K_BELOW) ? D_RANK : D_COUNT;
    V.Kind = (Args[0].Kind & K_BELOW) ? K_RANK : K_COUNT;
  } else if (Name == "__ffs") {
    V.Dep = D_LANE;
    V.Kind = K_FFS;
  } else {
    V.Dep = D_LANE;
    V.Kind = K_CLZ;
  }
  return V;
}

// ---- operators on masks -----------------------------------------------------

void Walker::maskAnd(const BinaryOperator *BO, const Val &L, const Val &R,
                     Val &V) {
  if ((L.Kind & K_MASK) && (R.Kind & (K_MASK | K_FULL))) {
    V.Kind = K_MASK | ((L.Kind | R.Kind) & K_BELOW);
  } else if ((R.Kind & K_MASK) && (L.Kind & (K_MASK | K_FULL))) {
    V.Kind = K_MASK | ((L.Kind | R.Kind) & K_BELOW);
  } else if (((L.Dep | R.Dep) & D_MASK)) {
    // (mask >> lane) & 1 tests a bit; other constants select bits
    const Val &O = (L.Dep & D_MASK) ? R : L;
    if (!(O.Kind & K_ONE))
      block(BO->getOperatorLoc(),
            llvm::formatv("'{0}' selects bits of a lane mask laid out for "
                          "32 lanes",
                          text(BO))
                .str());
  }
}

void Walker::maskOrXor(const BinaryOperator *BO, const Val &L, const Val &R,
                       Val &V) {
  if ((L.Kind & K_MASK) && (R.Kind & K_MASK))
    V.Kind = K_MASK;
  else if ((L.Dep | R.Dep) & D_MASK)
    block(BO->getOperatorLoc(),
          llvm::formatv("'{0}' combines a lane mask with a 32-bit constant",
                        text(BO))
              .str());
}

void Walker::maskShr(const BinaryOperator *BO, const Val &L, const Val &R) {
  if ((L.Kind & K_MASK) && (R.Kind & K_LANE))
    return; // bit test: (mask >> lane) & 1
  if (L.Dep & D_MASK)
    block(BO->getOperatorLoc(),
          llvm::formatv("'{0}' shifts a lane mask laid out for 32 lanes",
                        text(BO))
              .str());
}

void Walker::laneBitShl(const BinaryOperator *BO, const Val &L, const Val &R,
                        Val &V) {
  if ((L.Kind & (K_ONE | K_FULL)) && (R.Kind & K_LANE)) {
    // 1 << lane: a lane bit; ~0 << lane: the lanes from this one up
    V.Dep = D_MASK | (R.Dep & ~(D_LANE));
    V.Kind = K_MASK | ((L.Kind & K_ONE) ? K_LANEBIT : 0);
    // 1ull << lane is already a 64-bit lane bit: every lane of a wave fits.
    bool Wide = !BO->getType()->isDependentType() &&
                I.Ctx.getTypeSize(BO->getType()) >= 64;
    if (L.Tok && Rec && !Wide) {
      std::string T = I.tokText(SM().getSpellingLoc(L.Tok->getBeginLoc()));
      bool Upper =
          llvm::StringRef(T).contains('U') || llvm::StringRef(T).contains('L');
      std::string New = (L.Kind & K_ONE) ? (Upper ? "1ULL" : "1ull")
                                         : "0xffffffffffffffffull";
      if (Rel)
        I.tokenSite(L.Tok, Ent, New, RuleId::PK2022,
                    "a lane bit of a 64-lane wave needs a 64-bit shift");
      hazard(W64Class::LaneBits, BO->getOperatorLoc(),
             llvm::formatv("'{0}' is a 32-bit lane bit: lanes 32-63 of a "
                           "64-lane wave do not fit",
                           text(BO))
                 .str());
    }
  } else if (L.Dep & D_MASK)
    block(BO->getOperatorLoc(),
          llvm::formatv("'{0}' shifts a lane mask laid out for 32 lanes",
                        text(BO))
              .str());
}

bool Walker::maskSub(const BinaryOperator *BO, const Val &L, const Val &R,
                     Val &V) {
  if ((L.Kind & K_LANEBIT) && (R.Kind & K_ONE)) {
    // (1 << lane) - 1: the lanes below
    V.Kind = K_MASK | K_BELOW;
    V.Dep = D_MASK | (V.Dep & ~D_MASK);
  } else if ((L.Kind & K_MASK) && (R.Kind & K_ONE)) {
    V.Kind = K_MASK;
  } else if ((L.Kind & K_FFS) && (R.Kind & K_ONE)) {
    // __ffs(mask) - 1: the first lane of the mask
    V.Kind = K_LANE;
    V.Dep = D_LANE | D_MASK;
    hazard(W64Class::LaneBits, BO->getOperatorLoc(),
           llvm::formatv("'{0}' turns a 32-bit lane mask into a lane index",
                         text(BO))
               .str());
  } else if ((L.Kind & K_LIT31) && (R.Kind & K_CLZ)) {
    // 31 - __clz(mask): the last lane of the mask
    V.Kind = K_LANE;
    V.Dep = D_LANE | D_MASK;
  } else
    return false;
  return true;
}

bool Walker::maskCompare(const BinaryOperator *BO, const Val &R) {
  if (R.Kind & (K_ZERO | K_MASK))
    return true;
  if (!(R.Kind & K_FULL))
    return false;
  if (R.Tok)
    I.tokenSite(R.Tok, Ent, "0xffffffffffffffffull", RuleId::PK2022,
                "a full 64-lane wave's mask has 64 bits set");
  hazard(W64Class::Ballot, BO->getOperatorLoc(),
         llvm::formatv("'{0}' compares a lane mask with 0xffffffff: on a "
                       "64-lane wave that is not \"every lane\"",
                       text(BO))
             .str());
  return true;
}

// ---- mask types -------------------------------------------------------------

void Wave64Analysis::Impl::maskTypeSite(const DeclaratorDecl *D, TypeLoc TL,
                                        int FnEnt, llvm::StringRef What) {
  if (TL.isNull())
    return;
  if (auto Q = TL.getAs<QualifiedTypeLoc>())
    TL = Q.getUnqualifiedLoc();
  QualType T = TL.getType();
  if (T.isNull() || !T->isIntegerType() || T->isBooleanType() ||
      Ctx.getTypeSize(T) > 32)
    return;
  if (TL.getAs<AutoTypeLoc>())
    return;
  SourceRange R = TL.getSourceRange();
  SourceLocation B = SM.getSpellingLoc(R.getBegin());
  SourceLocation E = SM.getSpellingLoc(R.getEnd());
  if (!Src.isUserLoc(B) || SM.getFileID(B) != SM.getFileID(E))
    return;
  unsigned BO = SM.getFileOffset(B);
  unsigned EO = SM.getFileOffset(E) + Lexer::MeasureTokenLength(E, SM, LO);
  if (EO <= BO)
    return;
  std::string File = Src.fileOf(B);
  if (!TokenAt.insert(tokKey(File, BO)).second)
    return;
  int Ent = entityFor(B, FnEnt);
  A.Sites.push_back({});
  W64Site &X = A.Sites.back();
  X.Kind = W64Site::MaskType;
  X.Loc = B;
  X.Len = EO - BO;
  X.Name = D->getNameAsString();
  X.Entity = Ent;
  if (Ent >= 0)
    Ents[Ent].HasSites = true;
  hazard(W64Class::Ballot, D->getLocation(),
         llvm::formatv("{0} '{1}' holds a lane mask in 32 bits "
                       "('{2}'): lanes 32-63 of a 64-lane wave are lost",
                       What, D->getName(), T.getAsString())
             .str());
}

void Wave64Analysis::Impl::maskTypes() {
  // Variables and parameters that hold a lane mask.
  for (auto &[VD, VI] : Vars) {
    if (VI.LoopKind || VI.Sources.empty())
      continue;
    Val V = merged(VI);
    if (!(V.Kind & K_MASK))
      continue;
    const auto *FD = dyn_cast_or_null<FunctionDecl>(VD->getDeclContext());
    auto It = FD ? Fns.find(canonFn(FD)) : Fns.end();
    if (It == Fns.end())
      continue;
    if (TypeSourceInfo *TSI = VD->getTypeSourceInfo())
      maskTypeSite(VD, TSI->getTypeLoc(), It->second.Entity,
                   isa<ParmVarDecl>(VD) ? "parameter" : "variable");
  }
  // Functions that return one.
  for (auto &[FD, VI] : Rets) {
    if (VI.Sources.empty())
      continue;
    Val V = merged(VI);
    if (!(V.Kind & K_MASK))
      continue;
    auto It = Fns.find(FD);
    if (It == Fns.end())
      continue;
    if (TypeSourceInfo *TSI = FD->getTypeSourceInfo())
      if (auto FTL = TSI->getTypeLoc().getAs<FunctionTypeLoc>())
        maskTypeSite(FD, FTL.getReturnLoc(), It->second.Entity,
                     "the result of");
  }
}
