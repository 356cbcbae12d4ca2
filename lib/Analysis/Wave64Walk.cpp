//===- Wave64Walk.cpp - the walk of one function body ---------------------===//
// Rules: PK2005, PK2021, PK9003
//
// Walker visits the statements of a function: it evaluates every
// expression (the value flow, Wave64ValueFlow.cpp), tracks the enclosing
// loops and lane-selecting conditions, and in the record phase classifies
// every use.  walkAll repeats the walk over the TU until the values of
// variables, parameters and return values no longer change, then walks once
// more to record.  Declarations of 32-thread tiles are PK2005 sites; array
// sizes spelled with the warp width are widened (PK2021).  The walk follows
// at most Wave64Analysis::MaxDepth nested expressions and statements: deeper
// code is reported (PK9003), not analysed, and keeps logical warps.
//
//===----------------------------------------------------------------------===//
#include "Wave64Internal.h"

#include "pk/ASTUtil.h"

#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"
#include "clang/AST/TypeLoc.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/FormatVariadic.h"

using namespace pk;
using namespace pk::w64;
using namespace clang;

Walker::Walker(Wave64Analysis::Impl &I, const FunctionDecl *FD)
    : I(I), FD(FD), F(I.Fns[FD]), Ent(F.Entity), Rec(I.Record),
      Rel(F.Relevant) {}

void Walker::run() {
  for (const ParmVarDecl *P : FD->parameters())
    tileDecl(P);
  stmt(FD->getBody());
}

void Walker::block(SourceLocation L, std::string Msg) {
  if (Rec)
    I.blocker(Ent, L, std::move(Msg));
}

void Walker::hazard(W64Class C, SourceLocation L, std::string Msg) {
  if (Rec && Rel)
    I.hazard(C, L, std::move(Msg));
}

void Walker::claim(const Val &V, uint64_t Native, llvm::StringRef What) {
  if (!Rec || !V.Tok)
    return;
  // Bare literals only in code around warp code; W constants always.
  if (!((V.Kind & (K_W | K_HALFW | K_W1)) || Rel))
    return;
  const Expr *T = V.Tok->IgnoreParenImpCasts();
  const auto *IL = dyn_cast<IntegerLiteral>(T);
  std::string MName;
  if (IL && I.inWarpMacro(IL, &MName)) {
    // The macro's body is widened once; mark the use consumed.
    I.Claimed.insert(T);
    uint64_t Old = IL->getValue().getZExtValue();
    I.tokenSite(T, Ent, I.relit(T, Old == 31 ? 63 : 64), RuleId::PK2021,
                llvm::formatv("{0}: the warp width is 64 lanes under "
                              "native warps",
                              MName)
                    .str());
    return;
  }
  I.claim(V, Ent, Native, What);
}

bool Walker::laneWise(const Expr *C) {
  // Lane-wise: lane == 31, lane == leader, lane < n; not lane 0, the first
  // warp, or a mask test.
  if (!C)
    return false;
  if (tooDeep()) {
    unknownDeep(C);
    return false;
  }
  DepthScope G(Depth);
  const Expr *E = C->IgnoreParenImpCasts();
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->isLogicalOp())
      return laneWise(BO->getLHS()) || laneWise(BO->getRHS());
    if (BO->isComparisonOp()) {
      Val L = peek(BO->getLHS()), R = peek(BO->getRHS());
      if (!(L.Kind & K_LANE) && (R.Kind & K_LANE))
        std::swap(L, R);
      // lane < nwarps guards a read of the per-warp slots: no choice
      if ((L.Kind & K_LANE) && !(R.Kind & (K_ZERO | K_NWARPS)))
        return true;
      return (L.Dep & (D_LANE | D_RANK)) && !(L.Kind & K_LANE);
    }
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    if (UO->getOpcode() == UO_LNot)
      return laneWise(UO->getSubExpr());
  Val V = peek(E);
  // if (lane) is lane != 0
  return (V.Dep & (D_LANE | D_RANK)) && !(V.Kind & K_LANE);
}

// ---- code too deep to analyse (PK9003) --------------------------------------

Val Walker::unknownDeep(const Stmt *S) {
  if (I.Record)
    I.tooDeep(Ent, S);
  // Nothing is known about it but that it may differ between threads; the
  // function keeps logical warps (the blocker), which preserve meaning.
  Val V;
  V.Dep = D_TID;
  return V;
}

void Wave64Analysis::Impl::tooDeep(int Ent, const Stmt *S) {
  SourceLocation L = SM.getFileLoc(S->getBeginLoc());
  if (!Src.isUserLoc(L))
    return;
  // One report per line: deep code is reached along several paths.
  std::pair<unsigned, unsigned> Key{SM.getFileID(L).getHashValue(),
                                    SM.getExpansionLineNumber(L)};
  auto Seen = TooDeepAt.find(Key);
  if (Seen != TooDeepAt.end() && A.Unanalysed[Seen->second].HasWarpCode)
    return;
  // A warp collective inside is not rewritten or checked: name it.  The walk
  // is iterative (an explicit stack): the code is deep by definition.
  std::string Warp;
  SourceLocation WarpLoc;
  llvm::SmallVector<const Stmt *, 64> Work{S};
  while (!Work.empty() && Warp.empty()) {
    const Stmt *X = Work.pop_back_val();
    if (!X)
      continue;
    if (const auto *CE = dyn_cast<CallExpr>(X)) {
      llvm::StringRef N = calleeName(CE);
      if (isShuffleName(N) || isVoteName(N) || N == "__syncwarp" ||
          isUnsupportedWarpName(N) || isWmmaCall(CE)) {
        Warp = N.str();
        WarpLoc = SM.getFileLoc(CE->getBeginLoc());
      }
    }
    for (const Stmt *C : X->children())
      Work.push_back(C);
  }
  std::string Who = Ent >= 0 && !Ents[find(Ent)].Name.empty()
                        ? "'" + Ents[find(Ent)].Name + "'"
                        : "the code around it";
  std::string Msg =
      llvm::formatv("code nested more than {0} levels deep is too deep to "
                    "analyse; wave-64 hazards in it are not checked and {1} "
                    "keeps logical 32-lane warps",
                    Wave64Analysis::MaxDepth, Who)
          .str();
  if (!Warp.empty())
    Msg += llvm::formatv("; it calls {0} (line {1}), whose port is not "
                         "checked: split the expression",
                         Warp, SM.getPresumedLineNumber(WarpLoc))
               .str();
  if (Seen != TooDeepAt.end()) {
    // Reported already, without a warp collective: now with one.
    if (!Warp.empty())
      A.Unanalysed[Seen->second] = {A.Unanalysed[Seen->second].Loc,
                                    std::move(Msg), true};
    return;
  }
  TooDeepAt[Key] = A.Unanalysed.size();
  A.Unanalysed.push_back({L, std::move(Msg), !Warp.empty()});
  blocker(Ent, L,
          llvm::formatv("code nested more than {0} levels deep is too deep "
                        "to analyse",
                        Wave64Analysis::MaxDepth)
              .str());
}

// ---- statements -------------------------------------------------------------

void Walker::stmt(const Stmt *S) {
  if (!S)
    return;
  if (tooDeep()) {
    unknownDeep(S);
    return;
  }
  DepthScope G(Depth);
  stmtInner(S);
}

void Walker::stmtInner(const Stmt *S) {
  if (const auto *E = dyn_cast<Expr>(S)) {
    eval(E);
    return;
  }
  if (const auto *CS = dyn_cast<CompoundStmt>(S))
    return compound(CS);
  if (const auto *DS = dyn_cast<DeclStmt>(S))
    return declStmt(DS);
  if (const auto *FS = dyn_cast<ForStmt>(S))
    return forStmt(FS);
  if (const auto *AS = dyn_cast<GCCAsmStmt>(S))
    return asmStmt(AS);
  if (const auto *RS = dyn_cast<ReturnStmt>(S)) {
    Val V = eval(RS->getRetValue());
    if (RS->getRetValue())
      I.addSource(I.Rets[FD], RS, V);
    return;
  }
  if (const auto *IS = dyn_cast<IfStmt>(S))
    return ifStmt(IS);
  if (const auto *WS = dyn_cast<WhileStmt>(S)) {
    eval(WS->getCond());
    stmt(WS->getBody());
    return;
  }
  if (const auto *DS = dyn_cast<DoStmt>(S)) {
    stmt(DS->getBody());
    eval(DS->getCond());
    return;
  }
  if (const auto *SS = dyn_cast<SwitchStmt>(S)) {
    Val C = eval(SS->getCond());
    if (C.Dep & D_CMP)
      block(SS->getBeginLoc(), "a switch on the lane or warp id");
    stmt(SS->getBody());
    return;
  }
  if (const auto *RF = dyn_cast<CXXForRangeStmt>(S)) {
    eval(RF->getRangeInit());
    stmt(RF->getBody());
    return;
  }
  for (const Stmt *C : S->children())
    stmt(C);
}

void Walker::ifStmt(const IfStmt *IS) {
  stmt(IS->getInit());
  if (IS->getConditionVariableDeclStmt())
    stmt(IS->getConditionVariableDeclStmt());
  eval(IS->getCond());
  bool LW = laneWise(IS->getCond());
  if (LW)
    LaneConds.push_back(IS->getCond());
  Guards.push_back({IS->getCond(), false});
  stmt(IS->getThen());
  Guards.pop_back();
  stmt(IS->getElse());
  if (LW)
    LaneConds.pop_back();
}

void Walker::compound(const CompoundStmt *CS) {
  if (Rec)
    unrolledChains(CS);
  // 'if (threadIdx.x != 0) return;' guards the rest of the block with the
  // negated condition.
  size_t Depth = Guards.size();
  for (const Stmt *S : CS->body()) {
    stmt(S);
    if (const Expr *G = exitGuard(S))
      Guards.push_back({G, true});
  }
  Guards.resize(Depth);
}

const Expr *Walker::exitGuard(const Stmt *S) {
  const auto *IS = dyn_cast_or_null<IfStmt>(S);
  if (!IS || IS->getElse() || IS->getInit() ||
      IS->getConditionVariableDeclStmt())
    return nullptr;
  const Stmt *T = IS->getThen();
  if (const auto *CS = dyn_cast<CompoundStmt>(T))
    T = CS->size() == 1 ? CS->body_front() : nullptr;
  return isa_and_nonnull<ReturnStmt>(T) ? IS->getCond() : nullptr;
}

void Walker::declStmt(const DeclStmt *DS) {
  for (const Decl *D : DS->decls()) {
    if (const auto *VD = dyn_cast<VarDecl>(D))
      varDecl(VD);
    else if (const auto *SA = dyn_cast<StaticAssertDecl>(D))
      staticAssert(SA->getAssertExpr());
  }
}

void Walker::staticAssert(const Expr *E) {
  // static_assert(BLOCK % 32 == 0): whole warps
  if (!E)
    return;
  if (tooDeep()) {
    unknownDeep(E);
    return;
  }
  DepthScope G(Depth);
  E = E->IgnoreParenImpCasts();
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->getOpcode() == BO_Rem) {
      Val R = peek(BO->getRHS());
      if (is32(R))
        claim(R, 64, "whole warps per block");
    }
    staticAssert(BO->getLHS());
    staticAssert(BO->getRHS());
    return;
  }
  eval(E);
}

void Walker::varDecl(const VarDecl *VD) {
  tileDecl(VD);
  // Array sizes: warpCounts[THREADS / 32].
  if (TypeSourceInfo *TSI = VD->getTypeSourceInfo()) {
    TypeLoc TL = TSI->getTypeLoc();
    for (int Guard = 0; !TL.isNull() && Guard < 8; ++Guard) {
      if (auto AT = TL.getAs<ArrayTypeLoc>()) {
        if (AT.getSizeExpr()) {
          Val SV = eval(AT.getSizeExpr());
          // A larger array is harmless: widen warp-width sizes.
          if (SV.Kind & K_W)
            claim(SV, 64, "array size");
        }
        TL = AT.getElementLoc();
      } else
        TL = TL.getNextTypeLoc();
    }
  }
  if (const Expr *Init = VD->getInit()) {
    Val V = eval(Init);
    VarInfo &VI = I.Vars[VD];
    if (!VI.LoopKind)
      I.addSource(VI, VD, V);
    if (VD->getType()->isPointerType() || VD->getType()->isReferenceType())
      I.addSpace(VI, spaceOf(Init));
  }
}

void Walker::tileDecl(const DeclaratorDecl *D) {
  unsigned N = 0;
  if (!Rec || !tileType(D->getType(), N) || !N)
    return;
  TypeSourceInfo *TSI = D->getTypeSourceInfo();
  if (!TSI)
    return;
  TypeLoc TL = TSI->getTypeLoc();
  for (int G = 0; G < 4; ++G) {
    if (auto R = TL.getAs<ReferenceTypeLoc>())
      TL = R.getPointeeLoc();
    else if (auto P = TL.getAs<PointerTypeLoc>())
      TL = P.getPointeeLoc();
    else if (auto Q = TL.getAs<QualifiedTypeLoc>())
      TL = Q.getUnqualifiedLoc();
    else
      break;
  }
  if (TL.getAs<AutoTypeLoc>())
    return;
  SourceRange R = TL.getSourceRange();
  SourceLocation B = SM().getSpellingLoc(R.getBegin());
  SourceLocation E = SM().getSpellingLoc(R.getEnd());
  if (!I.Src.isUserLoc(B) || SM().getFileID(B) != SM().getFileID(E))
    return;
  std::string File = I.Src.fileOf(B);
  if (!I.TokenAt.insert(I.tokKey(File, SM().getFileOffset(B))).second)
    return;
  W64Site &S = I.site(W64Site::CgTile, nullptr, I.entityFor(B, Ent));
  S.Name = std::to_string(N);
  S.Loc = B;
  S.End = E;
}

// ---- the fixed point --------------------------------------------------------

void Wave64Analysis::Impl::walkAll() {
  Record = false;
  for (int Round = 0; Round < 8; ++Round) {
    Changed = false;
    for (const FunctionDecl *FD : FnOrder) {
      Walker W(*this, FD);
      W.run();
    }
    if (!Changed)
      break;
  }
  Record = true;
  for (const FunctionDecl *FD : FnOrder) {
    Walker W(*this, FD);
    W.run();
  }
}
