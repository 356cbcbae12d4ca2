//===- LiftMapGemm.cpp - contractions read from the kernel model ----------===//
// Rules: PK5001
//
// A 2-D map whose one store is
//   C[row, col] = [alpha *] sum_{k < K} A(row, k) * B(k, col) [+ [beta *] C]
// in the global coordinates (LiftMap.cpp), with A read as A[row * K + k]
// or A[k * M + row] and B as B[k * N + col] or B[col * K + k], is the
// GEMM C = alpha * A * B (+ beta * C), emitted as the GEMM lifter's tile
// program (LiftMatmul.cpp: nc_matmul into PSUM, K in tiles of 128): however
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

} // namespace mapgemm

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
  auto KPy = pyInt(Kx);
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
  G.M = Spec.Ey;
  G.N = Spec.Ex;
  G.K = *KPy;
  G.Checks = Spec.Checks;
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
