//===- LiftMatmulProve.cpp - the proof of a staged-tile GEMM --------------===//
// Rules: PK5041, PK5042, PK5043, PK5044
//
// What the staged-tile executor found, matched against
// C[row, col] = alpha * sum_k A[row, k] * B[k, col] (+ beta * C[row, col]):
// the operands, the K accumulation, the epilogue and the coverage of C.
//===----------------------------------------------------------------------===//
#include "LiftMatmulTiled.h"

using namespace clang;

namespace pk {
namespace nki {
namespace gemm {

/// Linear terms of the epilogue: coefficient (Python) times acc or old C.
struct Lin {
  std::vector<std::string> Coef;
  bool Acc = false; ///< else: the old value of C
};

bool linear(const FVP &V, std::vector<Lin> &Out,
            const std::function<bool(const FV &)> &IsAcc,
            const std::function<bool(const FV &)> &IsOld) {
  if (V->K == FV::Add)
    return linear(V->L, Out, IsAcc, IsOld) && linear(V->R, Out, IsAcc, IsOld);
  if (V->K == FV::Mul) {
    const FVP *S = nullptr, *X = nullptr;
    if (V->L->K == FV::Scalar) {
      S = &V->L;
      X = &V->R;
    } else if (V->R->K == FV::Scalar) {
      S = &V->R;
      X = &V->L;
    } else {
      return false;
    }
    size_t N = Out.size();
    if (!linear(*X, Out, IsAcc, IsOld))
      return false;
    for (size_t I = N; I < Out.size(); ++I)
      Out[I].Coef.push_back((*S)->S);
    return true;
  }
  if (IsAcc(*V)) {
    Out.push_back(Lin{{}, true});
    return true;
  }
  if (IsOld(*V)) {
    Out.push_back(Lin{{}, false});
    return true;
  }
  return false;
}

Gemm TiledGemm::prove() {
  if (!Out)
    refuse(RuleId::PK5044, FD->getLocation(),
           "the kernel stores no element of C");
  const OutStore &O = *Out;
  // The guard: row < M && col < N, C[row * N + col].
  if (O.Guard.size() != 2)
    refuse(RuleId::PK5044, O.Loc,
           "the store of C is not guarded by 'row < M && col < N'");
  Gemm G;
  Poly Row, Col;
  bool Found = false;
  for (int Sw = 0; Sw < 2 && !Found; ++Sw) {
    const auto &RC = O.Guard[Sw], &CC = O.Guard[1 - Sw];
    if (!RC.second.single() || !CC.second.single())
      continue;
    if (O.Idx == RC.first * CC.second + CC.first) {
      Row = RC.first;
      Col = CC.first;
      G.M = *RC.second.single();
      G.N = *CC.second.single();
      Found = true;
    }
  }
  if (!Found)
    refuse(RuleId::PK5041, O.Loc,
           "the store of C is not C[row * N + col] under 'row < M && col < "
           "N' with M and N size parameters");
  // The epilogue: alpha * acc + beta * C[same].
  const VarDecl *AccV = nullptr;
  std::vector<Poly> AccIdx;
  std::map<std::string, Poly> AccSub;
  std::vector<Lin> Terms;
  bool Lin0 = linear(
      O.V, Terms,
      [&](const FV &V) {
        if (V.K != FV::Acc || (AccV && AccV != V.AccV))
          return false;
        AccV = V.AccV;
        AccIdx = V.AccIdx;
        AccSub = V.AccSub;
        return true;
      },
      [&](const FV &V) {
        return V.K == FV::Load && V.P == O.P && V.Idx == O.Idx &&
               V.Guard.empty();
      });
  int NA = 0, NC = 0;
  for (const Lin &L : Terms)
    (L.Acc ? NA : NC)++;
  if (!Lin0 || NA != 1 || NC > 1)
    refuse(RuleId::PK5043, O.Loc,
           "the stored value is not 'alpha * acc + beta * C[same element]' "
           "(alpha, beta scalar parameters or constants, each optional)");
  for (const Lin &L : Terms) {
    std::string S = llvm::join(L.Coef, " * ");
    (L.Acc ? G.Alpha : G.Beta) = L.Acc ? S : (S.empty() ? "1.0" : S);
  }
  // The accumulator: sum over (k0 by S0 below K) x (k below S0) of
  // A[row * K + k0 + k] * B[(k0 + k) * N + col] (or Bt[col * K + k0 + k]).
  const Accum &A = Accs[AccV];
  std::map<std::string, Poly> ElemS = AccSub;
  for (size_t I = 0; I < A.Vars.size(); ++I)
    ElemS[A.Vars[I]] = AccIdx[I];
  FVP Term = substFV(A.Term, ElemS);
  // The K loops: the K-tile loop, then loops each splitting the step of the
  // one around it ('for (kk = 0; kk < T; kk += 16)' around the 16 of an
  // mma_sync), the last by 1: together they run over every k below K.
  bool Chain = A.Sums.size() >= 2 && A.Sums[0].KTile &&
               A.Sums[0].Begin == Poly() && A.Sums[0].End.single() &&
               A.Sums.back().Step == Poly::c(1);
  for (size_t I = 1; Chain && I < A.Sums.size(); ++I)
    Chain = A.Sums[I].Begin == Poly() && A.Sums[I].End == A.Sums[I - 1].Step;
  if (!Chain)
    refuse(RuleId::PK5042, A.Loc,
           "the accumulation does not run over 'for (k0 = 0; k0 < K; k0 += "
           "T)' and 'for (k = 0; k < T; ++k)' (or loops 'for (kk = 0; kk < "
           "T; kk += S)' between them, each within the step of the one "
           "around it)");
  for (size_t I = 1; I + 1 < A.Sums.size(); ++I) {
    auto En = A.Sums[I].End.constant(), St = A.Sums[I].Step.constant();
    if (!En || !St || *St <= 0 || *En % *St)
      refuse(RuleId::PK5042, A.Loc,
             "a loop over k steps by " + A.Sums[I].Step.py() +
                 " through a K tile of " + A.Sums[I].End.py() +
                 ": the steps do not split the tile evenly, so k runs past "
                 "it or leaves part of it out");
  }
  G.K = *A.Sums[0].End.single();
  Poly KK;
  for (const LoopCtx &L : A.Sums)
    KK = KK + Poly::atom(L.Var);
  if (Term->K != FV::Mul || Term->L->K != FV::Load || Term->R->K != FV::Load)
    refuse(RuleId::PK5042, A.Loc,
           "the accumulated value is not a product of two staged loads");
  Poly KP = Poly::atom(G.K);
  const FV *LA = nullptr, *LB = nullptr;
  for (const FV *X : {Term->L.get(), Term->R.get()}) {
    if (X->Idx == Row * KP + KK)
      LA = X;
    else if (X->Idx == KK * Poly::atom(G.N) + Col)
      LB = X;
    else if (X->Idx == Col * KP + KK) {
      LB = X;
      G.BTransposed = true;
    }
  }
  if (!LA || !LB || LA == LB)
    refuse(RuleId::PK5041, A.Loc,
           "the product's operands are not A[row * " + G.K +
               " + k] and B[k * " + G.N + " + col] (or B[col * " + G.K +
               " + k]): " + Term->L->Idx.py() + " and " + Term->R->Idx.py());
  Conds KBound = {{KK, KP}};
  auto Allowed = [&](const FV *X, const std::pair<Poly, Poly> &C) {
    return C == KBound[0] ||
           (X == LA && C == std::make_pair(Row, Poly::atom(G.M))) ||
           (X == LB && C == std::make_pair(Col, Poly::atom(G.N)));
  };
  int KGuards = 0;
  for (const FV *X : {LA, LB}) {
    for (const auto &C : X->Guard)
      if (!Allowed(X, C))
        refuse(RuleId::PK5042, A.Loc,
               "a staged load is guarded by " + C.first.py() + " < " +
                   C.second.py() + ", not a bound of its row, column or k");
    for (const auto &C : X->Guard)
      KGuards += C == KBound[0];
  }
  std::string Step = A.Sums[0].Step.py();
  if (KGuards == 0)
    check(G.K + " % " + paren(Step) + " == 0",
          "K is a multiple of the K tile (no zero fill past K)");
  else if (KGuards != 2)
    refuse(RuleId::PK5042, A.Loc,
           "only one of the staged operands is zero-filled past K");
  G.A = LA->P;
  G.B = LB->P;
  G.C = O.P;
  for (const ParmVarDecl *P : {G.A, G.B, G.C})
    if (!P->getType()->isPointerType() ||
        !dtypeOf(P->getType()->getPointeeType()))
      refuse(RuleId::PK5041, P->getLocation(), "pointer without NKI dtype");
  if (G.A == G.B || G.A == G.C || G.B == G.C ||
      dtypeOf(G.C->getType()->getPointeeType()) != DType::F32 ||
      dtypeOf(G.A->getType()->getPointeeType()) !=
          dtypeOf(G.B->getType()->getPointeeType()))
    refuse(RuleId::PK5041, O.Loc,
           "A, B and C must be distinct, A and B of one element type, C "
           "float");
  // Coverage: every (row, col) of C is stored by some thread.
  std::string Gen = "for bid_x in range(grid_x) for bid_y in range(grid_y) "
                    "for tid_x in range(block_x) for tid_y in range(block_y)";
  for (const LoopCtx &L : O.Loops)
    Gen += " for " + L.Var + " in range(" + L.Begin.py() + ", " + L.End.py() +
           ", " + L.Step.py() + ")";
  for (const Poly *P : {&Row, &Col})
    for (const std::string &X : P->atoms())
      if (X.find("tid_z") != std::string::npos ||
          X.find("bid_z") != std::string::npos)
        refuse(RuleId::PK5044, O.Loc, "a 3-D launch is not lifted");
  // Rows and columns separately where they depend on different indices
  // (linear in M + N), else every (row, col) of every thread.
  std::vector<CoverGen> Gens = {{"bid_x", "range(grid_x)", {}, true},
                                {"bid_y", "range(grid_y)", {}, true},
                                {"tid_x", "range(block_x)", {}, true},
                                {"tid_y", "range(block_y)", {}, true}};
  for (const LoopCtx &L : O.Loops) {
    CoverGen CG{L.Var,
                "range(" + L.Begin.py() + ", " + L.End.py() + ", " +
                    L.Step.py() + ")",
                {}};
    for (const Poly *B : {&L.Begin, &L.End, &L.Step})
      for (const std::string &N : pyNamesIn(*B))
        CG.Uses.insert(N);
    Gens.push_back(CG);
  }
  std::string Full = "len({(" + Row.py() + ", " + Col.py() + ") " + Gen +
                     " if " + Row.py() + " < " + G.M + " and " + Col.py() +
                     " < " + G.N + "}) == " + G.M + " * " + G.N;
  std::string Cover = splitCoverCheck(Row, Col, Gens, "r_ < " + G.M,
                                      "c_ < " + G.N, G.M, G.N, Full);
  Checks.push_back({Cover, "the launch stores every element of C"});
  G.Assigns = Assigns;
  G.Checks = Checks;
  bool Reg = false;
  for (const auto &[V, D] : Dims)
    Reg = Reg || (!Shared.count(V) && !D.empty());
  G.Family =
      std::string(!Frags.empty() ? "WMMA GEMM"
                  : Reg          ? "register-blocked GEMM"
                                 : "GEMM") +
      " over shared-memory tiles (C = " + (G.Alpha.empty() ? "" : "alpha * ") +
      "A * B" + (G.BTransposed ? "t^T" : "") +
      (G.Beta.empty() ? "" : " + beta * C") +
      "; nc_matmul over K tiles of 128 into PSUM)";
  return G;
}

Gemm TiledGemm::run() {
  exec(FD->getBody());
  return prove();
}

} // namespace gemm
} // namespace nki
} // namespace pk
