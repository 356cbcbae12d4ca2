//===- LiftMatmulEmit.cpp - the tile program of a proven GEMM -------------===//
// Rules: none (the GEMM tile program)
//
// A proven GEMM as a tile program: C in tiles of 128 x 512, K in tiles of
// 128 accumulated by nc_matmul in PSUM, the epilogue on the evicted tile.
//===----------------------------------------------------------------------===//
#include "LiftMatmulImpl.h"

using namespace clang;

namespace pk {
namespace nki {
namespace gemm {

Access acc2(const std::string &T, const std::string &P0, const std::string &P1,
            const std::string &F0, const std::string &F1) {
  Access A;
  A.Tensor = T;
  A.Slices = {{P0, P1}, {F0, F1}};
  return A;
}

void emitGemm(const FunctionDecl *FD, const Gemm &G, Kernel &K) {
  K.Name = FD->getNameAsString();
  for (const ParmVarDecl *P : FD->parameters()) {
    Param Pa;
    Pa.Name = P->getName().str();
    Pa.PyName = pyName(Pa.Name);
    if (!P->getType()->isPointerType()) {
      Pa.Ty = *scalarDtypeOf(P->getType());
      K.Params.push_back(Pa);
      continue;
    }
    Pa.IsTensor = true;
    Pa.Ty = *dtypeOf(P->getType()->getPointeeType());
    if (P == G.A)
      Pa.Shape = G.ATransposed ? std::vector<PyExpr>{G.K, G.M}
                               : std::vector<PyExpr>{G.M, G.K};
    else if (P == G.B)
      Pa.Shape = G.BTransposed ? std::vector<PyExpr>{G.N, G.K}
                               : std::vector<PyExpr>{G.K, G.N};
    else
      Pa.Shape = {G.M, G.N};
    Pa.R = P == G.C ? (G.Beta.empty() ? Param::Out : Param::InOut) : Param::In;
    K.Params.push_back(Pa);
  }
  K.Launch = {"grid_x", "grid_y", "block_x", "block_y"};
  Builder B(K.Body);
  for (const auto &[V, E] : G.Assigns)
    B.assign(V, E);
  for (const auto &[C, W] : G.Checks)
    B.check(C, W);
  DType TA = *dtypeOf(G.A->getType()->getPointeeType());
  DType TB = *dtypeOf(G.B->getType()->getPointeeType());
  std::string A = pyName(G.A->getName()), Bn = pyName(G.B->getName()),
              C = pyName(G.C->getName());
  std::string Out = C + (G.Beta.empty() ? "" : "_out");
  {
    Op O;
    O.Kind = OpKind::Alloc;
    O.Alloc = Tensor{Out, Mem::HBM, DType::F32, {G.M, G.N}};
    B.op(O);
  }
  K.Returns = {Out};
  std::string NT = G.BTransposed ? "128" : "512";
  B.chunks("m0", "m1", "nm", G.M, 128);
  B.chunks("n0", "n1", "nn", G.N, NT);
  std::string Acc = B.alloc("acc", Mem::PSUM, DType::F32, {"128", NT});
  // Zeroed first: a K of 0 sums to 0 (alpha * 0 + beta * C), and every
  // nc_matmul then accumulates.
  B.op(OpKind::Memset, acc2(Acc, "0", "nm", "0", "nn"),
       {Operand::scalar("0.0")});
  B.chunks("k0", "k1", "nk", G.K, 128);
  auto T = [](Access A) { return Operand::tile(std::move(A)); };
  // Stationary: the A tile [m, k] transposed to [k, m] (an A given as
  // its K x M transpose is loaded as it is).
  std::string AtS;
  if (G.ATransposed) {
    AtS = B.alloc("a_t", Mem::SBUF, TA, {"128", "128"});
    B.op(OpKind::DmaCopy, acc2(AtS, "0", "nk", "0", "nm"),
         {T(acc2(A, "k0", "k1", "m0", "m1"))});
  } else {
    std::string At = B.alloc("a", Mem::SBUF, TA, {"128", "128"});
    B.op(OpKind::DmaCopy, acc2(At, "0", "nm", "0", "nk"),
         {T(acc2(A, "m0", "m1", "k0", "k1"))});
    // A transpose writes its input's dtype: the PSUM tile has A's.
    std::string AtP = B.alloc("a_t", Mem::PSUM, TA, {"128", "128"});
    B.op(OpKind::Transpose, acc2(AtP, "0", "nk", "0", "nm"),
         {T(acc2(At, "0", "nm", "0", "nk"))});
    AtS = B.alloc("a_t", Mem::SBUF, TA, {"128", "128"});
    B.op(OpKind::TensorCopy, acc2(AtS, "0", "nk", "0", "nm"),
         {T(acc2(AtP, "0", "nk", "0", "nm"))});
  }
  // Moving: the B tile [k, n].
  std::string Bm;
  if (!G.BTransposed) {
    Bm = B.alloc("b", Mem::SBUF, TB, {"128", NT});
    B.op(OpKind::DmaCopy, acc2(Bm, "0", "nk", "0", "nn"),
         {T(acc2(Bn, "k0", "k1", "n0", "n1"))});
  } else {
    std::string Bt = B.alloc("bt", Mem::SBUF, TB, {"128", "128"});
    B.op(OpKind::DmaCopy, acc2(Bt, "0", "nn", "0", "nk"),
         {T(acc2(Bn, "n0", "n1", "k0", "k1"))});
    std::string BP = B.alloc("b", Mem::PSUM, TB, {"128", "128"});
    B.op(OpKind::Transpose, acc2(BP, "0", "nk", "0", "nn"),
         {T(acc2(Bt, "0", "nn", "0", "nk"))});
    Bm = B.alloc("b", Mem::SBUF, TB, {"128", "128"});
    B.op(OpKind::TensorCopy, acc2(Bm, "0", "nk", "0", "nn"),
         {T(acc2(BP, "0", "nk", "0", "nn"))});
  }
  B.op(OpKind::Matmul, acc2(Acc, "0", "nm", "0", "nn"),
       {T(acc2(AtS, "0", "nk", "0", "nm")), T(acc2(Bm, "0", "nk", "0", "nn"))});
  B.close();
  std::string R = B.alloc("res", Mem::SBUF, DType::F32, {"128", NT});
  Access RA = acc2(R, "0", "nm", "0", "nn");
  B.op(OpKind::TensorCopy, RA, {T(acc2(Acc, "0", "nm", "0", "nn"))});
  if (!G.Alpha.empty())
    B.op(OpKind::TensorScalar, RA, {T(RA), Operand::scalar(G.Alpha)},
         "nl.multiply");
  if (!G.Beta.empty()) {
    std::string Cs = B.alloc("c", Mem::SBUF, DType::F32, {"128", NT});
    Access CA = acc2(Cs, "0", "nm", "0", "nn");
    B.op(OpKind::DmaCopy, CA, {T(acc2(C, "m0", "m1", "n0", "n1"))});
    B.op(OpKind::TensorScalar, CA, {T(CA), Operand::scalar(G.Beta)},
         "nl.multiply");
    B.op(OpKind::TensorTensor, RA, {T(RA), T(CA)}, "nl.add");
  }
  B.op(OpKind::DmaCopy, acc2(Out, "m0", "m1", "n0", "n1"), {T(RA)});
  B.close();
  B.close();
  K.Family = G.Family;
}

/// The scalar of an epilogue factor: a float parameter or a constant.
std::optional<std::string> scalarOf(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (auto *D = dyn_cast<DeclRefExpr>(E))
    if (auto *P = dyn_cast<ParmVarDecl>(D->getDecl()))
      if (P->getType()->isFloatingType())
        return pyName(P->getName());
  if (auto *F = dyn_cast<FloatingLiteral>(E))
    return pyFloat(F->getValueAsApproximateDouble());
  return std::nullopt;
}

} // namespace gemm
} // namespace nki
} // namespace pk
