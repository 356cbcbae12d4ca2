//===- LiftMatmulTiled.cpp - values and arrays of the staged-tile GEMM ----===//
// Rules: PK5040, PK5041, PK5042, PK5043, PK5044
//
// The symbolic values of the staged-tile executor: expressions, reads of
// shared and register arrays resolved to their writers, array definitions,
// assignments, and the checks on shared tiles and fragment arguments.
//===----------------------------------------------------------------------===//
#include "LiftMatmulTiled.h"

using namespace clang;

namespace pk {
namespace nki {
namespace gemm {

FVP substFV(const FVP &V, const std::map<std::string, Poly> &S) {
  FV N = *V;
  N.Idx = V->Idx.subst(S);
  for (auto &[L, R] : N.Guard) {
    L = L.subst(S);
    R = R.subst(S);
  }
  for (Poly &P : N.AccIdx)
    P = P.subst(S);
  for (auto &[A, P] : N.AccSub)
    P = P.subst(S);
  if (V->L)
    N.L = substFV(V->L, S);
  if (V->R)
    N.R = substFV(V->R, S);
  return mk(std::move(N));
}

void atomsOf(const FVP &V, std::set<std::string> &Out) {
  auto Add = [&](const Poly &P) {
    auto A = P.atoms();
    Out.insert(A.begin(), A.end());
  };
  Add(V->Idx);
  for (auto &[L, R] : V->Guard) {
    Add(L);
    Add(R);
  }
  for (const Poly &P : V->AccIdx)
    Add(P);
  if (V->L)
    atomsOf(V->L, Out);
  if (V->R)
    atomsOf(V->R, Out);
}

FVP TiledGemm::value(const Expr *E) {
  // Copies of class-typed elements (__half) are their values.
  while (true) {
    E = E->IgnoreImplicit()->IgnoreParenImpCasts();
    auto *CE = dyn_cast<CXXConstructExpr>(E);
    if (!CE || CE->getNumArgs() != 1 || !CE->getConstructor() ||
        !(CE->getConstructor()->isCopyOrMoveConstructor()))
      break;
    E = CE->getArg(0);
  }
  if (isZeroLiteral(E))
    return mk(FV{});
  if (auto S = scalarOf(E)) {
    FV V;
    V.K = FV::Scalar;
    V.S = *S;
    return mk(V);
  }
  if (auto *C = dyn_cast<ConditionalOperator>(E)) {
    Conds G;
    if (!condsOf(IE, C->getCond(), G) || !isZeroLiteral(C->getFalseExpr()))
      refuse(RuleId::PK5041, C->getExprLoc(),
             "only a zero fill 'in bounds ? p[i] : 0' is lifted as a "
             "guarded load");
    FVP T = value(C->getTrueExpr());
    if (T->K != FV::Load)
      refuse(RuleId::PK5041, C->getExprLoc(),
             "the guarded value is not a load of a pointer parameter");
    FV N = *T;
    N.Guard.insert(N.Guard.end(), G.begin(), G.end());
    return mk(N);
  }
  if (auto *B = dyn_cast<BinaryOperator>(E)) {
    if (B->getOpcode() == BO_Add || B->getOpcode() == BO_Mul) {
      FV N;
      N.K = B->getOpcode() == BO_Add ? FV::Add : FV::Mul;
      N.L = value(B->getLHS());
      N.R = value(B->getRHS());
      return mk(N);
    }
    refuse(RuleId::PK5043, B->getOperatorLoc(),
           "operator '" + B->getOpcodeStr().str() +
               "' in a GEMM value is not lifted (only + and *)");
  }
  if (isa<ArraySubscriptExpr>(E)) {
    std::vector<Poly> Idx;
    const VarDecl *V = subscript(E, Idx);
    if (auto *P = dyn_cast_or_null<ParmVarDecl>(V)) {
      if (!P->getType()->isPointerType() || Idx.size() != 1)
        refuse(RuleId::PK5041, E->getExprLoc(), "not a pointer load");
      FV N;
      N.K = FV::Load;
      N.P = P;
      N.Idx = Idx[0];
      return mk(N);
    }
    if (!V || !Dims.count(V))
      refuse(RuleId::PK5040, E->getExprLoc(), "read of an unknown array");
    return readArray(V, Idx, E->getExprLoc());
  }
  if (const VarDecl *V = varOf(E)) {
    if (Accs.count(V)) {
      FV N;
      N.K = FV::Acc;
      N.AccV = V;
      return mk(N);
    }
    auto It = Defs.find(V);
    if (It != Defs.end() && It->second.Vars.empty())
      return It->second.V;
  }
  refuse(RuleId::PK5040, E->getExprLoc(),
         "value is not a load, a staged or register element, an "
         "accumulator, a scalar parameter or a constant");
}

FVP TiledGemm::readArray(const VarDecl *V, const std::vector<Poly> &Idx,
                         SourceLocation Loc) {
  {
    if (Shared.count(V) && Phase != 1 && Phase != 4)
      refuse(RuleId::PK5040, Loc,
             "shared array '" + V->getNameAsString() +
                 "' is read outside the compute phase of the K-tile loop "
                 "(between its two barriers) or after the barrier that "
                 "follows the store of the accumulator tiles");
    const auto &D = Dims[V];
    if (Idx.size() != D.size())
      refuse(RuleId::PK5041, Loc, "partial array subscript");
    auto It = Defs.find(V);
    for (size_t I = 0; I < D.size(); ++I) {
      bool Ext = It != Defs.end() && !It->second.Ext.empty();
      inBounds(Idx[I], Ext ? It->second.Ext[I] : D[I], Loc,
               V->getNameAsString());
    }
    if (It != Defs.end() && It->second.Tile)
      tileCovers(*It->second.Tile, It->second.TileLoops, Idx, Loc,
                 V->getNameAsString());
    if (Accs.count(V)) {
      FV N;
      N.K = FV::Acc;
      N.AccV = V;
      N.AccIdx = Idx;
      return mk(N);
    }
    if (It == Defs.end())
      refuse(RuleId::PK5040, Loc,
             "'" + V->getNameAsString() + "' is read before it is written");
    std::map<std::string, Poly> S;
    for (size_t I = 0; I < D.size(); ++I)
      S[It->second.Vars[I]] = Idx[I];
    return substFV(It->second.V, S);
  }
}

void TiledGemm::defineArray(const VarDecl *V, const std::vector<Poly> &Idx,
                            FVP Val, SourceLocation Loc) {
  const auto &D = Dims[V];
  if (Idx.size() != D.size())
    refuse(RuleId::PK5041, Loc, "partial array subscript");
  if (!Guard.empty())
    refuse(RuleId::PK5040, Loc,
           "a staged or register element is written under a condition");
  bool IsShared = Shared.count(V);
  if (IsShared && !StagedNow.insert(V).second)
    refuse(RuleId::PK5041, Loc,
           "shared array '" + V->getNameAsString() +
               "' is written by two stores in one staging phase: threads "
               "would race on its elements");
  if (IsShared && Phase != 0)
    refuse(RuleId::PK5040, Loc,
           "shared array '" + V->getNameAsString() +
               "' is written outside the staging phase of the K-tile loop "
               "(before its first barrier)");
  // Each index is a distinct free variable whose range is the dimension:
  // the store defines every element exactly once.
  Def Df;
  std::set<std::string> Seen;
  std::vector<Poly> Ext = D;
  for (size_t I = 0; I < D.size(); ++I) {
    auto A = Idx[I].single();
    if (!A || Seen.count(*A))
      refuse(RuleId::PK5041, Loc,
             "index " + Idx[I].py() + " of '" + V->getNameAsString() +
                 "' is not a variable of its own (a thread index or a loop "
                 "over the dimension)");
    Seen.insert(*A);
    Df.Vars.push_back(*A);
    const std::string &X = *A;
    std::string Dim = D[I].py();
    if (X.rfind("tid_", 0) == 0) {
      std::string Blk = "block_" + X.substr(4);
      auto DA = D[I].single();
      if (DA && !D[I].constant() && !Bound.count(*DA) && !IE.Max.count(*DA)) {
        // A template parameter sizing the tile: the program is defined
        // only when the block has exactly that many threads.
        Assigns.push_back({*DA, Blk});
        Bound.insert(*DA);
        IE.Max[*DA] = *DA;
      } else {
        check(Blk + " == " + Dim, "the block has one thread per element of '" +
                                      V->getNameAsString() + "'");
      }
      continue;
    }
    // (i // W) and (i % W) of a cooperative loop i < E: together they run
    // over [0, E / W) x [0, W) when W divides E.
    bool CoopPart = false;
    for (const LoopCtx &C : Loops) {
      if (!C.Coop || X.rfind("(" + C.Var + " ", 0) != 0)
        continue;
      std::string Rest = X.substr(C.Var.size() + 2);
      bool Div = Rest.rfind("// ", 0) == 0, Mod = Rest.rfind("% ", 0) == 0;
      int64_t W = 0, E = *C.End.constant();
      if (Div || Mod)
        W = std::atoll(Rest.c_str() + (Div ? 3 : 2));
      std::string Partner =
          "(" + C.Var + (Div ? " % " : " // ") + std::to_string(W) + ")";
      if (W <= 0 || E % W ||
          !std::any_of(Idx.begin(), Idx.end(),
                       [&](const Poly &P) { return P == Poly::atom(Partner); }))
        refuse(RuleId::PK5041, Loc,
               "index " + X + " of '" + V->getNameAsString() +
                   "' is not one of a (i / W, i % W) pair over a cooperative "
                   "loop whose bound W divides");
      // The pair covers [0, E / W) x [0, W): the whole dimension, or its
      // leading part when the row is padded (reads are then checked to stay
      // inside the part written).
      Poly W0 = Poly::c(Div ? E / W : W);
      auto DC = D[I].constant();
      if (D[I] != W0 && !(DC && *DC > *W0.constant()))
        refuse(RuleId::PK5041, Loc,
               "index " + X + " of '" + V->getNameAsString() +
                   "' does not run over the whole dimension " + Dim);
      Ext[I] = W0;
      CoopPart = true;
    }
    if (CoopPart)
      continue;
    const LoopCtx *L = nullptr;
    for (const LoopCtx &C : Loops)
      if (C.Var == X)
        L = &C;
    if (!L || L->Begin != Poly() || L->Step != Poly::c(1) || L->End != D[I])
      refuse(RuleId::PK5041, Loc,
             "index " + X + " of '" + V->getNameAsString() +
                 "' does not run over the whole dimension " + Dim);
  }
  if (IsShared) {
    std::set<std::string> At;
    atomsOf(Val, At);
    for (const std::string &A : At)
      if ((A.find("tid_") != std::string::npos ||
           std::any_of(Loops.begin(), Loops.end(),
                       [&](const LoopCtx &C) {
                         return C.Coop && A.find(C.Var) != std::string::npos;
                       })) &&
          !Seen.count(A))
        refuse(RuleId::PK5041, Loc,
               "the value staged into '" + V->getNameAsString() +
                   "' depends on a thread index that does not select the "
                   "element: threads would race");
  }
  // A 16-bit tile must hold its operand unconverted (a float staged into a
  // half tile would be rounded, which the lifted program does not do).
  QualType ET = V->getType();
  while (const ArrayType *AT = ET->getAsArrayTypeUnsafe())
    ET = AT->getElementType();
  auto EDT = dtypeOf(ET);
  if (EDT && (*EDT == DType::F16 || *EDT == DType::BF16) &&
      (Val->K != FV::Load ||
       dtypeOf(Val->P->getType()->getPointeeType()) != EDT))
    refuse(RuleId::PK5041, Loc,
           "the 16-bit array '" + V->getNameAsString() +
               "' is not filled with loads of its own element type (a "
               "conversion would round)");
  Df.V = std::move(Val);
  if (Ext != D)
    Df.Ext = Ext;
  Defs[V] = std::move(Df);
}

void TiledGemm::assign(const Expr *LHS, const Expr *RHS, BinaryOperatorKind Op,
                       SourceLocation Loc) {
  const Expr *L = LHS->IgnoreParenImpCasts();
  std::vector<Poly> Idx;
  const VarDecl *V = isa<ArraySubscriptExpr>(L) ? subscript(L, Idx) : varOf(L);
  if (!V)
    refuse(RuleId::PK5040, Loc, "store to an unknown location");
  if (Op == BO_AddAssign) {
    if (!ZeroInit.count(V) || Accs.count(V))
      refuse(RuleId::PK5042, Loc,
             "'" + V->getNameAsString() +
                 "' is not a zero-initialised accumulator updated once");
    Accum A;
    A.Loc = Loc;
    A.Term = value(RHS);
    std::set<std::string> El;
    for (const Poly &I : Idx) {
      auto X = I.single();
      if (!X || El.count(*X))
        refuse(RuleId::PK5042, Loc,
               "accumulator index " + I.py() + " is not an element loop");
      El.insert(*X);
      A.Vars.push_back(*X);
    }
    const auto &D = Dims.count(V) ? Dims[V] : std::vector<Poly>();
    for (size_t I = 0; I < A.Vars.size(); ++I) {
      const LoopCtx *Lc = nullptr;
      for (const LoopCtx &C : Loops)
        if (C.Var == A.Vars[I])
          Lc = &C;
      if (!Lc || Lc->Begin != Poly() || Lc->Step != Poly::c(1) ||
          Lc->End != D[I])
        refuse(RuleId::PK5042, Loc,
               "accumulator index " + A.Vars[I] +
                   " does not run over the whole dimension");
    }
    for (const LoopCtx &C : Loops)
      if (!El.count(C.Var))
        A.Sums.push_back(C);
    if (!Guard.empty())
      refuse(RuleId::PK5042, Loc, "the accumulation is conditional");
    Accs[V] = A;
    return;
  }
  if (Op != BO_Assign)
    refuse(RuleId::PK5040, Loc,
           "compound assignment other than the accumulation '+='");
  if (auto *P = dyn_cast<ParmVarDecl>(V)) {
    if (Out || Idx.size() != 1 || (Phase != -1 && Phase != 4))
      refuse(RuleId::PK5044, Loc,
             "only one store to global memory, after the K loop, is lifted");
    OutStore O;
    O.P = P;
    O.Idx = Idx[0];
    O.V = value(RHS);
    O.Guard = Guard;
    O.Loops = Loops;
    O.Loc = Loc;
    Out = O;
    return;
  }
  if (Accs.count(V) || ZeroInit.count(V))
    refuse(RuleId::PK5042, Loc,
           "accumulator '" + V->getNameAsString() + "' is assigned");
  if (Dims.count(V)) {
    defineArray(V, Idx, value(RHS), Loc);
    return;
  }
  if (V->getType()->isFloatingType()) {
    if (!Guard.empty())
      refuse(RuleId::PK5040, Loc, "conditional register value");
    Defs[V] = Def{{}, value(RHS)};
    return;
  }
  refuse(RuleId::PK5040, Loc, "store not part of a GEMM");
}

bool TiledGemm::uniformLoopVar(const std::string &A) const {
  for (const LoopCtx &L : Loops) {
    if (L.Var != A || L.Coop)
      continue;
    // Bounds of sizes and constants only: every lane runs the same
    // iterations.
    for (const Poly *P : {&L.Begin, &L.End, &L.Step})
      for (const std::string &X : P->atoms())
        if (X.find("tid_") != std::string::npos ||
            X.find("v_") != std::string::npos)
          return false;
    return true;
  }
  return false;
}

void TiledGemm::warpUniform(const Poly &Off, SourceLocation Loc) {
  // Terms of a loop variable (a loop over an array of fragments or over
  // the K tile, with the same iterations in every lane) must not involve
  // the thread; the rest must be uniform over each warp.
  Poly P;
  for (const auto &[M, V] : Off) {
    bool Loop = false, Tid = false;
    for (const std::string &A : M) {
      if (uniformLoopVar(A))
        Loop = true;
      else if (A.find("tid_") != std::string::npos)
        Tid = true;
    }
    if (Loop && Tid)
      refuse(RuleId::PK5041, Loc,
             "the fragment's tile offset " + sourceNames(Off) +
                 " multiplies a loop variable by a thread index (only a "
                 "sum of a warp-uniform offset and loop terms is lifted)");
    if (!Loop)
      P.add(M, V);
  }
  for (const std::string &A : P.atoms()) {
    std::string R = A;
    for (size_t At; (At = R.find("tid_x")) != std::string::npos;)
      R.erase(At, 5);
    if (R.size() == A.size() || std::any_of(R.begin(), R.end(), [](char C) {
          return std::isalpha(C) || C == '_';
        }))
      refuse(RuleId::PK5041, Loc,
             "the fragment's tile offset " + P.py() +
                 " is not a function of threadIdx.x alone (a warp's offset "
                 "must be uniform over its lanes)");
  }
  check("block_x % 32 == 0", "blocks are whole warps");
  check("block_y == 1", "one-dimensional blocks");
  if (P.atoms().empty())
    return;
  check("all(len({" + P.py() +
            " for tid_x in range(w_ * 32, min(w_ * 32 + 32, block_x))}) == 1 "
            "for w_ in range((block_x + 31) // 32))",
        "the fragment offsets are uniform over the lanes of each warp");
}

const VarDecl *TiledGemm::sharedTile(const Expr *Ptr, const Expr *Ld, Poly &R0,
                                     Poly &C0, SourceLocation Loc) {
  const Expr *E = Ptr->IgnoreParenImpCasts();
  std::vector<Poly> Idx;
  const VarDecl *V = nullptr;
  if (auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_AddrOf)
    V = subscript(U->getSubExpr(), Idx);
  if (!V || !Shared.count(V) || Idx.size() != 2 || Dims[V].size() != 2)
    refuse(RuleId::PK5041, Loc,
           "the fragment's address is not '&S[row][col]' of a "
           "two-dimensional shared array");
  std::string Name = V->getNameAsString();
  auto L = IE.eval(Ld);
  auto W = Dims[V][1].constant();
  if (!L || !W || L->constant() != W)
    refuse(RuleId::PK5041, Ld->getExprLoc(),
           "the leading dimension is not the row length of '" + Name + "'");
  R0 = Idx[0];
  C0 = Idx[1];
  warpUniform(R0, Loc);
  warpUniform(C0, Loc);
  auto MR = IE.maxOf(R0), MC = IE.maxOf(C0);
  if (!MR || !MC)
    refuse(RuleId::PK5041, Loc,
           "the tile offset in '" + Name + "' is not bounded");
  check(paren(*MR) + " + 16 <= " + Dims[V][0].py() + " and " + paren(*MC) +
            " + 16 <= " + Dims[V][1].py(),
        "the 16x16 fragment tiles of '" + Name + "' stay inside it");
  return V;
}

void TiledGemm::tileCovers(const std::pair<Poly, Poly> &T,
                           const std::vector<LoopCtx> &TileLoops,
                           const std::vector<Poly> &Idx, SourceLocation Loc,
                           const std::string &Arr) {
  auto MR = IE.maxOf(Idx[0]), MC = IE.maxOf(Idx[1]);
  if (!MR || !MC)
    refuse(RuleId::PK5041, Loc, "the read of '" + Arr + "' is not bounded");
  std::string R0 = T.first.py(), C0 = T.second.py();
  std::string Gen = "tid_x in range(block_x)";
  for (const LoopCtx &L : TileLoops)
    Gen += " for " + L.Var + " in range(" + L.Begin.py() + ", " + L.End.py() +
           ", " + L.Step.py() + ")";
  check("{(r_, c_) for " + Gen + " for r_ in range(" + R0 + ", " + R0 +
            " + 16) for c_ in range(" + C0 + ", " + C0 +
            " + 16)} >= {(r_, c_) for r_ in range(" + *MR +
            " + 1) for c_ in range(" + *MC + " + 1)}",
        "the accumulator tiles stored to '" + Arr +
            "' cover the elements read back");
}

FragRef TiledGemm::fragArg(const CallExpr *C, unsigned I) {
  FragRef R;
  const Expr *E =
      I < C->getNumArgs() ? C->getArg(I)->IgnoreParenImpCasts() : nullptr;
  if (E && isa<ArraySubscriptExpr>(E)) {
    const Expr *B = E;
    while (auto *A = dyn_cast<ArraySubscriptExpr>(B)) {
      R.IdxE.insert(R.IdxE.begin(), A->getIdx());
      B = A->getBase()->IgnoreParenImpCasts();
    }
    R.V = subscript(E, R.Idx);
  } else if (E) {
    R.V = varOf(E);
  }
  if (!R.V || !Frags.count(R.V) || R.Idx.size() != FragDims[R.V].size())
    refuse(RuleId::PK5040, C->getExprLoc(),
           "argument " + std::to_string(I + 1) + " of '" + calleeName(C) +
               "' is not a WMMA fragment variable or an element of an array "
               "of fragments");
  return R;
}

std::vector<std::string> TiledGemm::fragLoops(const FragRef &R, RuleId Rule,
                                              SourceLocation Loc,
                                              const std::string &N) {
  std::vector<std::string> Vars;
  const std::vector<Poly> &D = FragDims[R.V];
  for (size_t I = 0; I < R.Idx.size(); ++I) {
    auto A = R.Idx[I].single();
    const LoopCtx *L = nullptr;
    if (A)
      for (const LoopCtx &C : Loops)
        if (C.Var == *A)
          L = &C;
    if (!L || L->Coop || L->KTile || L->Begin != Poly() ||
        L->Step != Poly::c(1) || L->End != D[I] ||
        std::find(Vars.begin(), Vars.end(), *A) != Vars.end())
      refuse(Rule, Loc,
             "index '" + text(R.IdxE[I]) + "' of the fragment array '" +
                 R.V->getNameAsString() + "' in '" + N +
                 "' is not the variable of a loop 'for (v = 0; v < " +
                 D[I].py() +
                 "; ++v)' over its whole dimension (each call must cover "
                 "every fragment of the array)");
    Vars.push_back(*A);
  }
  return Vars;
}

} // namespace gemm
} // namespace nki
} // namespace pk
