//===- LiftMatmulTiledExec.cpp - statements of the staged-tile GEMM -------===//
// Rules: PK5040, PK5041, PK5042, PK5043, PK5044
//
// The statements of the staged-tile executor: WMMA calls on staged tiles,
// loops (cooperative, K tiles, element loops) and the other statements.
//===----------------------------------------------------------------------===//
#include "LiftMatmulTiled.h"

using namespace clang;

namespace pk {
namespace nki {
namespace gemm {

void TiledGemm::wmmaCall(const CallExpr *C) {
  std::string N = calleeName(C);
  SourceLocation Loc = C->getExprLoc();
  auto ElemDType = [](const VarDecl *V) {
    QualType T = V->getType();
    while (const ArrayType *A = T->getAsArrayTypeUnsafe())
      T = A->getElementType();
    return dtypeOf(T);
  };
  if (N == "fill_fragment" && C->getNumArgs() == 2) {
    FragRef R = fragArg(C, 0);
    const VarDecl *V = R.V;
    if (Frags[V].Use != "accumulator" || !isZeroLiteral(C->getArg(1)) ||
        Phase != -1 || KDone || !Guard.empty() || ZeroInit.count(V) ||
        Loops.size() != R.Idx.size())
      refuse(RuleId::PK5042, Loc,
             "the accumulator is not zero-filled once, unconditionally, "
             "before the K-tile loop (an array of accumulators inside the "
             "loops over its elements only)");
    fragLoops(R, RuleId::PK5042, Loc, N);
    ZeroInit.insert(V);
    return;
  }
  if (N == "load_matrix_sync" && C->getNumArgs() == 3) {
    FragRef R = fragArg(C, 0);
    const VarDecl *V = R.V;
    if (Frags[V].Use == "accumulator" || Phase != 1 || !Guard.empty())
      refuse(RuleId::PK5040, Loc,
             "an operand fragment is loaded outside the compute phase of the "
             "K-tile loop (between its two barriers) or under a condition");
    std::vector<std::string> El = fragLoops(R, RuleId::PK5040, Loc, N);
    Poly R0, C0;
    const VarDecl *Arr = sharedTile(C->getArg(1), C->getArg(2), R0, C0, Loc);
    std::string I = freshAtom("fr", 15), J = freshAtom("fc", 15);
    Def Df;
    Df.Vars = El;
    Df.Vars.push_back(I);
    Df.Vars.push_back(J);
    // Element (i, j) of a col_major fragment is at p[j * ld + i]: row j,
    // column i of the tile at p.
    bool Col = Frags[V].Layout == "col_major";
    Poly RI = Poly::atom(Col ? J : I), CJ = Poly::atom(Col ? I : J);
    Df.V = readArray(Arr, {R0 + RI, C0 + CJ}, Loc);
    if (Df.V->K != FV::Load ||
        ElemDType(Arr) != dtypeOf(Df.V->P->getType()->getPointeeType()))
      refuse(RuleId::PK5041, Loc,
             "the shared tile '" + Arr->getNameAsString() +
                 "' does not hold the global operand's elements unconverted");
    Defs[V] = std::move(Df);
    return;
  }
  if (N == "mma_sync" && C->getNumArgs() == 4) {
    FragRef D = fragArg(C, 0), A = fragArg(C, 1), B = fragArg(C, 2),
            Cc = fragArg(C, 3);
    if (D.V != Cc.V || D.Idx != Cc.Idx || Frags[D.V].Use != "accumulator" ||
        Frags[A.V].Use != "matrix_a" || Frags[B.V].Use != "matrix_b")
      refuse(RuleId::PK5042, Loc,
             "mma_sync is not 'mma_sync(acc, a, b, acc)' with a matrix_a and "
             "a matrix_b fragment");
    if (!ZeroInit.count(D.V) || Accs.count(D.V) || Phase != 1 || !Guard.empty())
      refuse(RuleId::PK5042, Loc,
             "'" + D.V->getNameAsString() +
                 "' is not a zero-filled accumulator updated once, "
                 "unconditionally, in the compute phase of the K-tile loop");
    std::vector<std::string> El = fragLoops(D, RuleId::PK5042, Loc, N);
    auto DA = Defs.find(A.V), DB = Defs.find(B.V);
    if (DA == Defs.end() || DB == Defs.end())
      refuse(RuleId::PK5040, Loc, "a fragment is used before it is loaded");
    std::string I = freshAtom("mi", 15), J = freshAtom("mj", 15),
                KK = freshAtom("mk", 15);
    // An operand element of an array of fragments: the loads ran over the
    // whole array in loops that have ended, so every element holds what
    // its load stored.
    auto Operand = [&](const FragRef &X, const Def &Df, const std::string &P,
                       const std::string &Q) {
      std::map<std::string, Poly> S;
      for (size_t K = 0; K < X.Idx.size(); ++K) {
        for (const LoopCtx &L : Loops)
          if (L.Var == Df.Vars[K])
            refuse(RuleId::PK5040, Loc,
                   "fragment '" + X.V->getNameAsString() +
                       "' is used inside the loop that loads its elements "
                       "(only the elements of earlier iterations are "
                       "loaded): load the whole array before the loops of "
                       "mma_sync");
        inBounds(X.Idx[K], FragDims[X.V][K], Loc, X.V->getNameAsString());
        S[Df.Vars[K]] = X.Idx[K];
      }
      size_t NI = X.Idx.size();
      S[Df.Vars[NI]] = Poly::atom(P);
      S[Df.Vars[NI + 1]] = Poly::atom(Q);
      return substFV(Df.V, S);
    };
    FV T;
    T.K = FV::Mul;
    T.L = Operand(A, DA->second, I, KK);
    T.R = Operand(B, DB->second, KK, J);
    Accum Ac;
    Ac.Loc = Loc;
    Ac.Vars = El;
    Ac.Vars.push_back(I);
    Ac.Vars.push_back(J);
    Ac.Term = mk(T);
    for (const LoopCtx &L : Loops)
      if (std::find(El.begin(), El.end(), L.Var) == El.end())
        Ac.Sums.push_back(L);
    LoopCtx L;
    L.Var = KK;
    L.End = Poly::c(16);
    L.Step = Poly::c(1);
    Ac.Sums.push_back(L);
    Accs[D.V] = Ac;
    return;
  }
  if (N == "store_matrix_sync" && C->getNumArgs() == 4) {
    FragRef R = fragArg(C, 1);
    const VarDecl *V = R.V;
    if (!Accs.count(V) || !KDone || Phase != -1 ||
        Loops.size() != R.Idx.size() || !Guard.empty())
      refuse(RuleId::PK5044, Loc,
             "the accumulator is not stored to a shared tile once, "
             "unconditionally, after the K-tile loop (an array of "
             "accumulators inside the loops over its elements only)");
    std::vector<std::string> El = fragLoops(R, RuleId::PK5044, Loc, N);
    auto *L = dyn_cast<DeclRefExpr>(C->getArg(3)->IgnoreParenImpCasts());
    if (!L || L->getDecl()->getName() != "mem_row_major")
      refuse(RuleId::PK5041, Loc,
             "the accumulator is stored column-major (only mem_row_major is "
             "lifted)");
    Poly R0, C0;
    const VarDecl *Arr = sharedTile(C->getArg(0), C->getArg(2), R0, C0, Loc);
    if (ElemDType(Arr) != DType::F32)
      refuse(RuleId::PK5043, Loc,
             "the accumulator tile '" + Arr->getNameAsString() +
                 "' is not float (the stored values would be rounded)");
    StagedNow.insert(Arr);
    // The accumulated term may depend on the thread only through the
    // tile's offsets: an element read back at (r, c) is then the same for
    // every warp (and every fragment of its array) whose tile holds it
    // (those offsets cancel).
    std::set<std::string> TA, OA = R0.atoms();
    atomsOf(Accs[V].Term, TA);
    for (const std::string &A : C0.atoms())
      OA.insert(A);
    for (const std::string &A : TA)
      if (A.find("tid_") != std::string::npos && !OA.count(A))
        refuse(RuleId::PK5041, Loc,
               "the accumulator depends on the thread through " + A +
                   ", not only through the offset of the tile it is stored "
                   "at");
    OA.insert(El.begin(), El.end());
    std::map<std::string, Poly> W;
    for (const std::string &A : OA)
      W[A] = Poly::atom("v_w" + std::to_string(Fresh++) + "_");
    std::string P = "v_tr" + std::to_string(Fresh++) + "_",
                Q = "v_tc" + std::to_string(Fresh++) + "_";
    FV Acc;
    Acc.K = FV::Acc;
    Acc.AccV = V;
    for (const std::string &E : El)
      Acc.AccIdx.push_back(W[E]);
    Acc.AccIdx.push_back(Poly::atom(P) - R0.subst(W));
    Acc.AccIdx.push_back(Poly::atom(Q) - C0.subst(W));
    Acc.AccSub = W;
    Def Df;
    Df.Vars = {P, Q};
    Df.V = mk(Acc);
    Df.Tile = std::make_pair(R0, C0);
    Df.TileLoops = Loops;
    Defs[Arr] = std::move(Df);
    Phase = 3;
    return;
  }
  refuse(RuleId::PK5040, Loc,
         "call to '" + N + "' is not part of a WMMA GEMM over shared tiles");
}

void TiledGemm::forLoop(const ForStmt *F) {
  auto *DS = dyn_cast_or_null<DeclStmt>(F->getInit());
  auto *V = DS && DS->isSingleDecl() ? dyn_cast<VarDecl>(DS->getSingleDecl())
                                     : nullptr;
  if (!V || !V->hasInit() || !V->getType()->isIntegerType())
    refuse(RuleId::PK5040, F->getForLoc(),
           "loop is not 'for (int v = begin; v < end; v += step)'");
  LoopCtx L;
  L.Var = "v_" + V->getNameAsString() + std::to_string(Fresh++) + "_";
  LoopNames[L.Var] = V->getNameAsString();
  L.Begin = ieval(V->getInit());
  Poly Atom = Poly::atom(L.Var);
  IE.Env[V] = Atom;
  Conds C;
  if (!condsOf(IE, F->getCond(), C) || C.size() != 1 || C[0].first != Atom)
    refuse(RuleId::PK5040, F->getForLoc(), "loop condition is not 'v < end'");
  L.End = C[0].second;
  const Expr *Inc = F->getInc() ? F->getInc()->IgnoreParenImpCasts() : nullptr;
  if (auto *U = dyn_cast_or_null<UnaryOperator>(Inc);
      U && U->isIncrementOp() && varOf(U->getSubExpr()) == V)
    L.Step = Poly::c(1);
  else if (auto *CA = dyn_cast_or_null<CompoundAssignOperator>(Inc);
           CA && CA->getOpcode() == BO_AddAssign && varOf(CA->getLHS()) == V)
    L.Step = ieval(CA->getRHS());
  else
    refuse(RuleId::PK5040, F->getForLoc(), "loop increment is not 'v += step'");
  // Which kind: a cooperative loop (begin = thread index, step = threads),
  // the K-tile loop (contains barriers), or a loop from 0 by 1.
  bool HasBarrier = false;
  std::function<void(const clang::Stmt *)> Find = [&](const clang::Stmt *S) {
    if (!S)
      return;
    if (isBarrier(S))
      HasBarrier = true;
    for (const clang::Stmt *C : S->children())
      Find(C);
  };
  Find(F->getBody());
  if (L.Begin == Poly::atom("tid_x")) {
    auto St = L.Step.constant();
    auto En = L.End.constant();
    if (!St || !En || HasBarrier)
      refuse(RuleId::PK5040, F->getForLoc(),
             "a cooperative loop 'for (i = threadIdx.x; i < E; i += T)' "
             "needs constant E and T");
    check("block_x == " + std::to_string(*St),
          "the block has the " + std::to_string(*St) +
              " threads the cooperative staging loops assume");
    L.Coop = true;
    L.Begin = Poly();
    L.Step = Poly::c(1);
    IE.Max[L.Var] = std::to_string(*En - 1);
  } else if (HasBarrier) {
    if (Phase != -1 || !Loops.empty())
      refuse(RuleId::PK5040, F->getForLoc(),
             "only one K-tile loop with barriers, at the top level, is "
             "lifted");
    L.KTile = true;
  } else {
    auto St = L.Step.constant();
    if (L.Begin != Poly() || !St || *St <= 0)
      refuse(RuleId::PK5040, F->getForLoc(),
             "loop is not 'for (int v = 0; v < end; v += step)' with a "
             "constant step");
    auto En = L.End.constant();
    if (*St != 1 && En && *En > 0)
      IE.Max[L.Var] = std::to_string((*En - 1) / *St * *St);
    else if (auto M = IE.maxOf(L.End))
      IE.Max[L.Var] = *M + " - 1";
  }
  Loops.push_back(L);
  if (L.KTile)
    Phase = 0;
  exec(F->getBody());
  if (L.KTile) {
    if (Phase != 2)
      refuse(RuleId::PK5040, F->getForLoc(),
             "the K-tile loop is not 'stage; __syncthreads(); compute; "
             "__syncthreads();'");
    Phase = -1;
    KDone = true;
    StagedNow.clear();
    // Staged values do not outlive their iteration.
    for (const VarDecl *S : Shared)
      Defs.erase(S);
  }
  Loops.pop_back();
  IE.Env.erase(V);
}

void TiledGemm::exec(const clang::Stmt *S) {
  S = unwrap(S);
  if (auto *CS = dyn_cast<CompoundStmt>(S)) {
    for (const clang::Stmt *X : CS->body())
      exec(X);
    return;
  }
  if (auto *AS = dyn_cast<AttributedStmt>(S))
    return exec(AS->getSubStmt());
  if (isa<NullStmt>(S))
    return;
  if (isBarrier(S)) {
    if (Phase == 0 && Loops.size() == 1)
      Phase = 1;
    else if (Phase == 1 && Loops.size() == 1)
      Phase = 2;
    else if (Phase == 3 && Loops.empty())
      Phase = 4;
    else
      refuse(RuleId::PK5040, S->getBeginLoc(),
             "barrier outside 'stage; __syncthreads(); compute; "
             "__syncthreads();' in the K-tile loop");
    return;
  }
  if (Phase == 2)
    refuse(RuleId::PK5040, S->getBeginLoc(),
           "statement after the K-tile loop's second barrier");
  if (auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls()) {
      auto *V = dyn_cast<VarDecl>(D);
      if (!V)
        refuse(RuleId::PK5040, D->getLocation(), "declaration not lifted");
      if (V->hasAttr<CUDASharedAttr>()) {
        Dims[V] = dimsOf(V);
        Shared.insert(V);
        continue;
      }
      QualType T = V->getType();
      // A fragment, or an array of fragments (a warp tile of several
      // 16x16 fragments) with constant dimensions.
      std::vector<Poly> FDims;
      QualType FT = T;
      while (const ArrayType *A = FT->getAsArrayTypeUnsafe()) {
        auto *CA = dyn_cast<ConstantArrayType>(A);
        if (!CA) {
          QualType E = A->getElementType();
          while (const ArrayType *A2 = E->getAsArrayTypeUnsafe())
            E = A2->getElementType();
          if (fragOf(E))
            refuse(RuleId::PK5040, V->getLocation(),
                   "array of WMMA fragments '" + V->getNameAsString() +
                       "' without constant dimensions");
          break;
        }
        FDims.push_back(Poly::c(CA->getSize().getSExtValue()));
        FT = CA->getElementType();
      }
      if (auto F = fragOf(FT)) {
        if (F->Mi != 16 || F->Ni != 16 || F->Ki != 16 ||
            (F->Use != "accumulator" && F->Layout != "row_major" &&
             F->Layout != "col_major"))
          refuse(RuleId::PK5040, V->getLocation(),
                 "WMMA fragment '" + V->getNameAsString() +
                     "' is not a 16x16x16 accumulator or row- or col-major "
                     "operand (the shapes and layouts lifted from shared "
                     "tiles)");
        Frags[V] = *F;
        FragDims[V] = FDims;
        Dims[V] = FDims;
        Dims[V].push_back(Poly::c(16));
        Dims[V].push_back(Poly::c(16));
        continue;
      }
      if (T->isArrayType()) {
        Dims[V] = dimsOf(V);
        if (V->hasInit()) {
          auto *IL = dyn_cast<InitListExpr>(V->getInit()->IgnoreImplicit());
          bool AllZero = IL != nullptr;
          if (IL)
            for (const Expr *E : IL->inits())
              AllZero = AllZero &&
                        (isa<ImplicitValueInitExpr>(E) || isZeroLiteral(E));
          if (!AllZero)
            refuse(RuleId::PK5040, V->getLocation(),
                   "array initialiser other than '= {}' or zeros");
          ZeroInit.insert(V);
        }
        continue;
      }
      if (T->isIntegerType()) {
        if (!V->hasInit() || !T.isConstQualified())
          refuse(RuleId::PK5040, V->getLocation(),
                 "integer local '" + V->getNameAsString() +
                     "' is not a const with an initialiser");
        IE.Env[V] = ieval(V->getInit());
        continue;
      }
      if (T->isFloatingType() || T->isDependentType()) {
        if (V->hasInit() && isZeroLiteral(V->getInit())) {
          ZeroInit.insert(V);
          continue;
        }
        if (V->hasInit()) {
          if (!Guard.empty())
            refuse(RuleId::PK5040, V->getLocation(),
                   "conditional register value");
          Defs[V] = Def{{}, value(V->getInit())};
        }
        continue;
      }
      refuse(RuleId::PK5040, V->getLocation(),
             "local '" + V->getNameAsString() + "' is not lifted");
    }
    return;
  }
  if (auto *F = dyn_cast<ForStmt>(S))
    return forLoop(F);
  if (auto *I = dyn_cast<IfStmt>(S)) {
    Conds C;
    if (I->getElse() || !condsOf(IE, I->getCond(), C))
      refuse(RuleId::PK5044, I->getIfLoc(),
             "condition is not a conjunction of bounds 'a < b' without else");
    size_t N = Guard.size();
    Guard.insert(Guard.end(), C.begin(), C.end());
    exec(I->getThen());
    Guard.resize(N);
    return;
  }
  if (auto *B = dyn_cast<BinaryOperator>(S))
    if (B->isAssignmentOp())
      return assign(B->getLHS(), B->getRHS(), B->getOpcode(), B->getExprLoc());
  // An assignment of a class-typed element (__half, __nv_bfloat16).
  if (auto *O = dyn_cast<CXXOperatorCallExpr>(S))
    if ((O->getOperator() == OO_Equal || O->getOperator() == OO_PlusEqual) &&
        O->getNumArgs() == 2)
      return assign(O->getArg(0), O->getArg(1),
                    O->getOperator() == OO_Equal ? BO_Assign : BO_AddAssign,
                    O->getOperatorLoc());
  if (auto *C = dyn_cast<CallExpr>(S))
    if (!Frags.empty())
      return wmmaCall(C);
  if (isa<ReturnStmt>(S))
    refuse(RuleId::PK5040, S->getBeginLoc(),
           "early return in a GEMM over shared tiles: the tiles are proven "
           "only when every thread of the block stages, reaches the barriers "
           "and stores under a 'row < M && col < N' guard");
  refuse(RuleId::PK5040, S->getBeginLoc(),
         "statement not part of a recognised tiled GEMM");
}

} // namespace gemm
} // namespace nki
} // namespace pk
