//===- LiftMapGemm.cpp - contractions read from the kernel model ----------===//
// Rules: PK5001
//
// A 2-D map whose one store is
//   C[row, col] = [alpha *] sum_{k < K} A(row, k) * B(k, col) [+ [beta *] C]
// in the global coordinates (LiftMap.cpp), with A read as A[row * K + k]
// or A[k * M + row] and B as B[k * N + col] or B[col * K + k], is the
// GEMM C = alpha * A * B (+ beta * C), emitted as the GEMM lifter's tile
// program (LiftMatmulEmit.cpp: nc_matmul into PSUM, K in tiles of 128): however
// the kernel's loop over k, its locals and its thread mapping are written.
//
//===----------------------------------------------------------------------===//
#include "LiftMapImpl.h"

#include "llvm/Support/FormatVariadic.h"

using namespace pk;
using namespace pk::nki;
using namespace pk::nki::mapread;
using namespace pk::km;
using namespace clang;

namespace mapgemm {

void terms(SymP S, std::vector<SymP> &Out) {
  if (S->K == SK::Bin && S->Op == "+" && !S->isInt()) {
    terms(S->Ops[0], Out);
    terms(S->Ops[1], Out);
    return;
  }
  Out.push_back(S);
}

/// A scalar factor: a floating parameter or a constant.
std::optional<std::string> scalarPy(SymP S) {
  if (S->K == SK::Flt)
    return pyFloat(S->F);
  if (S->K == SK::Param && S->D && isFloatTy(S->T))
    return pyName(S->D->getName());
  return std::nullopt;
}

/// `s * X` or `X` (s = 1): the factor and X.
std::pair<std::optional<std::string>, SymP> scaled(SymP T) {
  if (T->K == SK::Bin && T->Op == "*")
    for (int I = 0; I < 2; ++I)
      if (auto S = scalarPy(T->Ops[I]))
        return {S, T->Ops[1 - I]};
  return {std::string(), T};
}

/// A load, through a widening conversion.
SymP loadOf(SymP S) {
  if (S->K == SK::Cast && isFloatTy(S->T))
    S = S->Ops[0];
  return S->K == SK::Load ? S : nullptr;
}

bool samePoly(SymPool &P, SymP A, SymP B) {
  auto PA = P.poly(A), PB = P.poly(B);
  return PA && PB && *PA == *PB;
}

/// \p S with every integer monomial t * c * m (c a multiple of \p T)
/// written (c / T) * k * m: the tile's first k in place of the tile index.
SymP retile(SymPool &P, SymP S, SymP It, SymP K, int64_t T, bool &Ok,
            std::map<SymP, SymP> &Memo) {
  auto F = Memo.find(S);
  if (F != Memo.end())
    return F->second;
  SymP R = S;
  if (S == It) {
    Ok = false; // the tile index not scaled by the tile size
  } else if (S->isInt() && S->T != Ty::Bool && P.containsKind(S, SK::Iter)) {
    if (auto Pl = P.poly(S)) {
      R = P.intc(0, S->T);
      for (auto &[M, C] : *Pl) {
        SymP Term = P.intc(1, S->T);
        int64_t Cf = C;
        for (SymP A : M) {
          if (A == It) {
            if (Cf % T) {
              Ok = false;
              return S;
            }
            Cf /= T;
            Term = P.bin("*", Term, K);
            continue;
          }
          Term = P.bin("*", Term,
                       A->Ops.empty() ? A : retile(P, A, It, K, T, Ok, Memo));
        }
        R = P.bin("+", R, P.bin("*", P.intc(Cf, S->T), Term));
      }
    } else {
      R = nullptr;
    }
  }
  if (R == S && !S->Ops.empty() && S != It) {
    std::vector<SymP> Ops;
    for (SymP O : S->Ops)
      Ops.push_back(retile(P, O, It, K, T, Ok, Memo));
    R = P.rebuild(S, Ops);
    if (!R || S->K == SK::Iter || S->K == SK::Reduce || S->K == SK::Ptr)
      Ok = false;
  }
  if (!R) {
    Ok = false;
    R = S;
  }
  Memo[S] = R;
  return R;
}

/// A factor of a tile product: the load, and the conjuncts of the
/// condition under which it was staged (none: staged unconditionally).
bool factor(SymPool &P, SymP X, SymP &Load, std::vector<SymP> &Conds) {
  if (X->K == SK::Select && X->Ops[2]->K == SK::Flt && X->Ops[2]->F == 0) {
    conjuncts(P, X->Ops[0], Conds);
    X = X->Ops[1];
  }
  Load = X;
  return loadOf(X) != nullptr;
}

} // namespace mapgemm

std::optional<std::pair<SymP, SymP>>
mapread::untile(SymPool &P, SymP It, SymP Body, SymP Guard, std::string &Why) {
  using namespace mapgemm;
  auto No = [&](const char *W) -> std::optional<std::pair<SymP, SymP>> {
    Why = W;
    return std::nullopt;
  };
  std::vector<SymP> Ts;
  terms(Body, Ts);
  int64_t T = int64_t(Ts.size());
  // The loop over tiles: t < (K + T - 1) / T.
  SymP End = It->Ops[1];
  if (End->K != SK::Bin || End->Op != "/" || End->Ops[1] != P.intc(T))
    return No("a sum over tiles whose count is not (K + T - 1) / T for T "
              "terms a tile");
  auto EP = P.poly(End->Ops[0]);
  if (!EP || EP->coefficient(km::Mono{}) != T - 1 || T == 1)
    return No("a sum over tiles whose count is not (K + T - 1) / T for T "
              "terms a tile");
  km::Poly KP = *EP - km::Poly::constant(T - 1);
  SymP Kx = P.fromPoly(KP);
  SymP K = P.atom(1010);
  // The term of tile element kk is g(t * T + kk) for one g.
  std::vector<SymP> Rt;
  for (SymP X : Ts) {
    bool Ok = true;
    std::map<SymP, SymP> Memo;
    Rt.push_back(retile(P, X, It, K, T, Ok, Memo));
    if (!Ok)
      return No("a sum over tiles whose terms do not index by the tile's "
                "first element plus a constant");
  }
  SymP G = nullptr;
  for (SymP Cand : Rt) {
    std::multiset<SymP> Want(Rt.begin(), Rt.end());
    bool All = true;
    for (int64_t KK = 0; KK < T && All; ++KK) {
      SymP Sh = KK ? P.subst(Cand, {{K, P.bin("+", K, P.intc(KK))}}) : Cand;
      auto W = Want.find(Sh);
      All = W != Want.end();
      if (All)
        Want.erase(W);
    }
    if (All) {
      G = Cand;
      break;
    }
  }
  if (!G)
    return No("a sum over tiles whose terms are not one product at T "
              "consecutive k");
  // Zero fill: each factor staged under k < K and bounds the store's
  // guard implies; the product then vanishes past K.
  if (G->K != SK::Bin || G->Op != "*")
    return No("a sum whose terms are not products of two loads");
  std::vector<SymP> Known;
  if (Guard)
    conjuncts(P, Guard, Known);
  SymP KBound = P.cmp("<", K, Kx);
  SymP Fs[2];
  for (int I = 0; I < 2; ++I) {
    std::vector<SymP> Conds;
    if (!factor(P, G->Ops[I], Fs[I], Conds))
      return No("a sum whose terms are not products of two loads");
    bool HasK = false;
    for (SymP C : Conds) {
      if (C == KBound) {
        HasK = true;
        continue;
      }
      if (std::find(Known.begin(), Known.end(), C) == Known.end())
        return No("a tile staged under a condition the store's guard does "
                  "not imply");
    }
    if (!HasK)
      return No("a tile staged past K without zero fill (k < K)");
  }
  SymP Iter = P.iter(nullptr, P.intc(0), Kx, P.intc(1));
  SymP Prod = P.subst(P.bin("*", Fs[0], Fs[1]), {{K, Iter}});
  return std::make_pair(Iter, Prod);
}

std::optional<GemmSpec>
mapread::contraction(SymPool &P, const NStore &S, SymP Row, SymP Col, SymP M,
                     SymP N, const MapSpec &Spec, std::string &Why) {
  using namespace mapgemm;
  auto No = [&](std::string W) -> std::optional<GemmSpec> {
    Why = std::move(W);
    return std::nullopt;
  };
  for (const std::string &L : Spec.Launch)
    if (L != "grid_x" && L != "grid_y" && L != "block_x" && L != "block_y")
      return No("a contraction over a launch of more than two dimensions");
  const char *Epi = "a contraction whose epilogue is not alpha * sum + beta "
                    "* C (a bias, an activation): the lifted GEMM computes "
                    "only alpha * A * B + beta * C";
  GemmSpec G;
  G.C = S.P;
  SymP Red = nullptr;
  std::vector<SymP> Ts;
  terms(S.Val, Ts);
  for (SymP T : Ts) {
    auto [F, X] = scaled(T);
    if (!F)
      return No(Epi);
    if (X->K == SK::Reduce) {
      if (Red)
        return No("two sums in one element");
      Red = X;
      G.Alpha = *F;
    } else if (X->K == SK::Load && X->D == S.P && X->Ops[0] == S.Idx) {
      if (!G.Beta.empty())
        return No("C read twice in the epilogue");
      G.Beta = F->empty() ? "1.0" : *F;
    } else {
      return No(Epi);
    }
  }
  if (!Red || Red->Op != "+")
    return No("a reduction that is not a sum of products");
  SymP It = Red->Ops[0], Body = Red->Ops[1];
  SymP Kx = It->Ops[1];
  if (Body->K == SK::Bin && Body->Op == "+") {
    // A sum over K tiles of the tile's unrolled products (shared-memory
    // tiles staged with zero fill): one sum over k < K.
    std::string W;
    auto U = untile(P, It, Body, S.Guard, W);
    if (!U)
      return No(W);
    std::tie(It, Body) = *U;
    Kx = It->Ops[1];
  }
  auto KPy = pySize(Kx);
  if (!KPy || Body->K != SK::Bin || Body->Op != "*")
    return No("a sum whose terms are not products of two loads");
  SymP L0 = loadOf(Body->Ops[0]), L1 = loadOf(Body->Ops[1]);
  if (!L0 || !L1)
    return No("a sum whose terms are not products of two loads");
  SymP RK = P.bin("+", P.bin("*", Row, Kx), It), KR = P.bin("+", P.bin("*", It, M), Row);
  SymP KC = P.bin("+", P.bin("*", It, N), Col), CK = P.bin("+", P.bin("*", Col, Kx), It);
  auto AForm = [&](SymP L) -> int {
    return samePoly(P, L->Ops[0], RK) ? 1 : samePoly(P, L->Ops[0], KR) ? 2 : 0;
  };
  auto BForm = [&](SymP L) -> int {
    return samePoly(P, L->Ops[0], KC) ? 1 : samePoly(P, L->Ops[0], CK) ? 2 : 0;
  };
  SymP LA = L0, LB = L1;
  if (!AForm(LA) || !BForm(LB))
    std::swap(LA, LB);
  int FA = AForm(LA), FB = BForm(LB);
  if (!FA || !FB)
    return No("a sum of products whose operands are not A(row, k) and "
              "B(k, col) of row-major matrices");
  G.A = dyn_cast<ParmVarDecl>(LA->D);
  G.B = dyn_cast<ParmVarDecl>(LB->D);
  if (!G.A || !G.B || G.A == G.B || G.A == G.C || G.B == G.C)
    return No("a contraction of a tensor with itself or with its output");
  auto TA = dtypeOf(G.A->getType()->getPointeeType()),
       TB = dtypeOf(G.B->getType()->getPointeeType()),
       TC = dtypeOf(G.C->getType()->getPointeeType());
  if (!TA || !TB || *TA != *TB || *TA == DType::I32 || *TA == DType::U32 ||
      TC != DType::F32)
    return No("a contraction of operands of different or integer types, or "
              "into a non-float32 C (nc_matmul multiplies one floating type "
              "into float32)");
  G.ATransposed = FA == 2;
  G.BTransposed = FB == 2;
  G.M = Spec.Ey.pyAtom();
  G.N = Spec.Ex.pyAtom();
  G.K = KPy->pyAtom();
  for (const auto &[Cond, Why] : Spec.Checks)
    G.Checks.push_back({Cond.py(), Why});
  G.Family = llvm::formatv(
      "GEMM read from the kernel model: C[{0} x {1}] = {2}A{3} * B{4}{5} "
      "summed over {6} (C in tiles of 128 x {7}, K in tiles of 128 "
      "accumulated by nc_matmul in PSUM)",
      G.M, G.N, G.Alpha.empty() ? "" : G.Alpha + " * ",
      G.ATransposed ? "^T" : "", G.BTransposed ? "^T" : "",
      G.Beta.empty() ? "" : " + " + G.Beta + " * C", G.K,
      G.BTransposed ? "128" : "512");
  return G;
}
