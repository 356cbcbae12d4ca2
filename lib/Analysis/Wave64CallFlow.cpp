//===- Wave64CallFlow.cpp - calls: warp collectives and user functions ----===//
// Rules: PK2002, PK2003, PK2005, PK2013, PK2023, PK2103
//
// A call is a warp collective (a site whose HIP spelling depends on the
// strategy: votes PK2002/PK2023, __syncwarp PK2003, cooperative-groups
// tiles and cg::reduce PK2005, intrinsics no strategy expresses PK2013), a
// member of a 32-thread tile (its rank is a lane id, class 3 PK2103), or a
// call of a user function: the arguments flow into its parameters and its
// return values into the result.  Shuffles and mask bit counts are checked
// in the files of their classes.
//
//===----------------------------------------------------------------------===//
#include "Wave64Internal.h"
#include "pk/ASTUtil.h"

#include "clang/AST/Decl.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/FormatVariadic.h"

using namespace pk;
using namespace pk::w64;
using namespace clang;

Val Walker::call(const CallExpr *CE) {
  llvm::StringRef Name = calleeName(CE);
  // Member calls on cooperative-groups tiles.
  const Expr *Obj = nullptr;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE))
    Obj = MC->getImplicitObjectArgument();
  else if (const auto *ME =
               dyn_cast<MemberExpr>(CE->getCallee()->IgnoreParenImpCasts()))
    Obj = ME->getBase();
  std::vector<Val> Args;
  if (Obj && !isa<CXXOperatorCallExpr>(CE))
    eval(Obj);
  for (const Expr *A : CE->arguments())
    Args.push_back(eval(A));
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(CE))
    return operatorCall(OC, Args);
  unsigned TileN = 0;
  if (Obj && tileOf(Obj, TileN))
    return memberCall(CE, Obj, Name, TileN, Args);

  if (isShuffleName(Name))
    return shuffle(CE, Name, Args);
  if (isWmmaCall(CE)) {
    block(CE->getBeginLoc(),
          "it uses tensor-core fragments, whose warp-to-tile mapping the "
          "MFMA rules port");
    return {};
  }
  if (isVoteName(Name))
    return vote(CE, Name, Args);
  if (Name == "__syncwarp") {
    collectiveSite(W64Site::SyncWarp, CE, Name);
    if (!Args.empty() && !isa<CXXDefaultArgExpr>(CE->getArg(0)))
      checkMaskArg(CE, Name, Args[0]);
    return {};
  }
  if (isUnsupportedWarpName(Name))
    return unsupportedCall(CE, Name, Args);
  if ((Name == "__popc" || Name == "__ffs" || Name == "__clz" ||
       Name == "__brev") &&
      Args.size() == 1 && (Args[0].Dep & D_MASK))
    return maskBitCall(CE, Name, Args);
  if (Name == "reduce" && CE->getNumArgs() == 3) {
    unsigned N = 0;
    // cg::reduce over a tile, or over the group parameter of a template
    // (its instantiations pass tiles, which become __pk_tile<N>).
    bool CgDependent = false;
    if (const auto *U = dyn_cast<UnresolvedLookupExpr>(
            CE->getCallee()->IgnoreParenImpCasts()))
      for (const NamedDecl *D : U->decls())
        for (const DeclContext *DC = D->getDeclContext(); DC;
             DC = DC->getParent())
          if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
            CgDependent |= NS->getName() == "cooperative_groups";
    if (tileOf(CE->getArg(0), N) ||
        (CgDependent && CE->getArg(0)->isTypeDependent())) {
      collectiveSite(W64Site::CgReduce, CE, "reduce");
      return {};
    }
  }
  if (Name == "tiled_partition") {
    tiledPartition(CE);
    return {};
  }
  if (Name.starts_with("atomic") && Args.size() >= 2)
    warpAggregateStore(CE, Args[1]);
  Val R;
  if (userCall(CE, Name, Args, R))
    return R;
  Val V;
  for (const Val &X : Args)
    V.Dep |= X.Dep;
  if (Name == "min" || Name == "max") {
    // min(x, W) and friends keep the constness
    bool AllC = true;
    for (const Val &X : Args)
      AllC &= (X.Kind & K_CONST) != 0;
    if (AllC)
      V.Kind |= K_CONST;
  }
  return V;
}

Val Walker::operatorCall(const CXXOperatorCallExpr *OC,
                         const std::vector<Val> &Args) {
  Val V;
  for (const Val &X : Args)
    V.Dep |= X.Dep;
  // operator= on class types
  if (OC->getOperator() == OO_Equal && OC->getNumArgs() == 2)
    assignTo(OC->getArg(0), OC, Args[1], OC->getArg(1));
  return V;
}

void Walker::collectiveSite(W64Site::KindT K, const CallExpr *CE,
                            llvm::StringRef Name) {
  if (!Rec || I.SiteStmts.count(CE))
    return;
  I.SiteStmts.insert(CE);
  W64Site &S =
      I.site(K, CE, I.entityFor(SM().getSpellingLoc(CE->getBeginLoc()), Ent));
  S.Name = Name.str();
}

Val Walker::vote(const CallExpr *CE, llvm::StringRef Name,
                 const std::vector<Val> &Args) {
  bool Sync = Name.ends_with("_sync");
  collectiveSite(W64Site::Vote, CE, Name);
  if (Sync && !Args.empty())
    checkMaskArg(CE, Name, Args[0]);
  Val V;
  if (Name == "__ballot_sync" || Name == "__ballot" || Name == "__activemask") {
    V.Dep = D_MASK;
    V.Kind = K_MASK;
  } else {
    // __any, __all: one answer for the warp's lanes, which 64-lane warps
    // decide over 64 lanes (see perThreadWarpResult).
    V.Dep = D_VOTE;
  }
  return V;
}

Val Walker::unsupportedCall(const CallExpr *CE, llvm::StringRef Name,
                            const std::vector<Val> &Args) {
  if (Rec && !I.SiteStmts.count(CE)) {
    I.SiteStmts.insert(CE);
    W64Site &S = I.site(W64Site::Unsupported, CE, Ent);
    S.Name = Name.str();
  }
  if (!Args.empty() && Name.ends_with("_sync"))
    checkMaskArg(CE, Name, Args[0]);
  block(CE->getBeginLoc(),
        llvm::formatv("{0} has no counterpart in HIP{1}", Name,
                      Name == "__uni_sync" ? "" : " before ROCm 6.2")
            .str());
  Val V;
  if (Name.starts_with("__match")) {
    V.Dep = D_MASK;
    V.Kind = K_MASK;
  }
  return V;
}

void Walker::tiledPartition(const CallExpr *CE) {
  // cg::tiled_partition<N>(g): the tile helper.
  if (!Rec || I.SiteStmts.count(CE))
    return;
  I.SiteStmts.insert(CE);
  unsigned N = 0;
  if (const auto *FD2 = CE->getDirectCallee())
    if (const TemplateArgumentList *TA = FD2->getTemplateSpecializationArgs())
      if (TA->size() >= 1 && TA->get(0).getKind() == TemplateArgument::Integral)
        N = TA->get(0).getAsIntegral().getZExtValue();
  if (!N)
    return;
  W64Site &S = I.site(W64Site::CgTile, CE,
                      I.entityFor(SM().getSpellingLoc(CE->getBeginLoc()), Ent));
  S.Name = std::to_string(N);
  S.Loc = SM().getSpellingLoc(CE->getBeginLoc());
  S.End = SM().getSpellingLoc(CE->getEndLoc());
  if (N == 32)
    hazard(W64Class::LaneArith, CE->getBeginLoc(),
           "tiled_partition<32>: two 32-thread tiles share one 64-lane "
           "wave; HIP before ROCm 6 has no tile votes");
}

bool Walker::userCall(const CallExpr *CE, llvm::StringRef Name,
                      const std::vector<Val> &Args, Val &R) {
  const FunctionDecl *Callee = canonFn(CE->getDirectCallee());
  std::vector<const FunctionDecl *> Targets;
  if (Callee && I.Fns.count(Callee))
    Targets.push_back(Callee);
  else if (!Callee && !Name.empty()) {
    // A call in a template: every user function of that name.
    auto It = I.ByName.find(Name.str());
    if (It != I.ByName.end())
      Targets.assign(It->second.begin(), It->second.end());
  }
  if (Targets.empty())
    return false;
  R = Val();
  for (const FunctionDecl *T : Targets) {
    for (unsigned K = 0; K < T->getNumParams() && K < Args.size(); ++K) {
      const ParmVarDecl *P = T->getParamDecl(K);
      VarInfo &VI = I.Vars[P];
      I.addSource(VI, CE->getArg(K), Args[K]);
      if (P->getType()->isPointerType() || P->getType()->isReferenceType())
        I.addSpace(VI, spaceOf(CE->getArg(K)));
    }
    auto RI = I.Rets.find(T);
    if (RI != I.Rets.end() && !RI->second.Sources.empty()) {
      Val X = I.merged(RI->second);
      R.Dep |= X.Dep;
      R.Kind = X.Kind;
    }
  }
  return true;
}

Val Walker::memberCall(const CallExpr *CE, const Expr *Obj,
                       llvm::StringRef Name, unsigned N,
                       const std::vector<Val> &Args) {
  Val V;
  if (Name == "thread_rank") {
    V.Dep = D_LANE;
    V.Kind = N == 32 ? K_LANE : 0;
    if (N == 32)
      hazard(W64Class::LaneArith, CE->getBeginLoc(),
             "tile.thread_rank() of a 32-thread tile: two tiles share a "
             "64-lane wave");
  } else if (Name == "meta_group_rank") {
    V.Dep = D_WARP;
    V.Kind = N == 32 ? K_WARP : 0;
  } else if (Name == "meta_group_size") {
    V.Dep = D_NWARPS;
    V.Kind = N == 32 ? K_NWARPS : 0;
  } else if (Name == "size" || Name == "num_threads") {
    V = konst(N);
    if (N == 32) {
      V.Kind |= K_W | K_LIT32;
      V.Dep |= D_W;
      V.Tok = CE;
    }
  } else if (Name == "ballot" || Name == "match_any" || Name == "match_all") {
    V.Dep = D_MASK;
    V.Kind = K_MASK;
  } else if (Name.starts_with("shfl")) {
    tileShuffle(CE, Name, N, Args);
  }
  return V;
}
