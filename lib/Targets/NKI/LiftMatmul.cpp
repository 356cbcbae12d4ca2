//===- LiftMatmul.cpp - GEMM kernels to nc_matmul tile programs -----------===//
// Rules: PK5040, PK5041, PK5042, PK5043, PK5044
//
// A kernel is lifted to an NKI GEMM when its per-thread program is proven to
// compute, for every element (row, col) of an M x N output C that it stores,
//   C[row * N + col] = alpha * sum_k A[row, k] * B[k, col]  (+ beta * C[...])
// with A an M x K row-major array, B a K x N row-major array or given as its
// N x K row-major transpose (a col-major B), and the stores of all threads
// covering C.  Two program structures are recognised:
//
//  * WMMA from global memory: fill_fragment(acc, 0); a loop over K in steps
//    of 16 loading an A and a B fragment through pointers `P + off` with a
//    size parameter as leading dimension and accumulating with mma_sync; an
//    optional element-wise `acc.x[i] *= s`; store_matrix_sync into C.  The
//    fragment offsets are decomposed as polynomials over the thread and
//    block indices and the size parameters (row * ld + col).
//
//  * Scalar multiply-accumulate over staged tiles (shared-memory tiles and
//    register blocking): the per-thread program is executed symbolically.
//    Shared-memory and register arrays are defined by stores whose indices
//    are free variables (thread indices, cooperative loop indices, element
//    loops); a read of such an array is resolved to the value the writer of
//    that element stored (the writer's variables solved from the read's
//    indices), so an accumulation `acc += As[..] * Bs[..]` inside the K
//    loops becomes a sum over k of products of two global loads with their
//    zero-fill guards.  The sum is then matched against A[row, k] * B[k, col]
//    where (row, col) is the guarded element of the final store.
//    WMMA fragments over staged tiles are executed the same way: a fragment
//    load defines a 16x16 array read from a shared tile (transposed for a
//    col_major fragment), mma_sync a 16-deep sum, store_matrix_sync a
//    shared float tile of accumulator tiles.  Arrays of fragments (warp
//    tiles of several fragments) are defined by calls in loops over each
//    whole dimension, their indices becoming variables of the definition;
//    loops 'for (kk = 0; kk < T; kk += 16)' that split the K tile join the
//    sum over k.
//
// Facts that depend on the sizes and the launch (the launch covers every
// element of C, blocks have the number of threads the staging loops assume,
// reads of staged tiles stay inside them, K a multiple of the fragment K
// when no zero fill guards it) become trace-time assertions of the NKI
// kernel; the launch dimensions become parameters.  The coverage assertion
// checks rows and columns separately (linear in M + N) when they depend on
// different block, thread and loop indices, and enumerates every (row, col)
// of the launch only when they share one.
//
// The tile program: C in tiles of 128 rows (the stationary free size) by
// 512 columns (the moving free size; 128 when B is transposed), K in tiles
// of 128 (the partition / contraction limit); A tiles are transposed to
// [K, M] with nc_transpose (through a PSUM tile of A's dtype: a transpose
// keeps its input's dtype) to be the stationary operand, B
// tiles [K, N] are the moving operand; nc_matmul accumulates into one PSUM
// tile per C tile, evicted with tensor_copy; alpha with tensor_scalar, beta
// * C with tensor_scalar and tensor_tensor.  Ragged edges are min()-bounded.
//
// A kernel with the GEMM shape that fails a proof is reported:
//   PK5040 structure outside the recognised ones; PK5041 operand layout;
//   PK5042 K accumulation; PK5043 epilogue; PK5044 output coverage/guard.
//
//===----------------------------------------------------------------------===//
#include "LiftMatmul.h"
#include "LiftMatmulTiled.h"

using namespace pk;
using namespace pk::nki;
using namespace clang;

namespace pk {
namespace nki {
namespace gemm {

/// Does the kernel have the shape of a GEMM: a WMMA mma_sync, or a
/// floating `+=` of a product reading a shared or local array?
class GemmShape : public DynamicASTVisitor {
public:
  bool Mma = false, Mac = false, Shared = false;
  unsigned Depth = 0;
  bool VisitVarDecl(VarDecl *V) override {
    Shared = Shared || V->hasAttr<CUDASharedAttr>();
    return true;
  }
  /// mma_sync inside a loop (a K loop): a lone mma_sync is not a GEMM.
  bool TraverseForStmt(ForStmt *F) override {
    ++Depth;
    bool R = DynamicASTVisitor::TraverseForStmt(F);
    --Depth;
    return R;
  }
  bool VisitCallExpr(CallExpr *C) override {
    if (Depth && calleeName(C) == "mma_sync")
      Mma = true;
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *B) override {
    if (B->getOpcode() != BO_AddAssign)
      return true;
    if (!B->getLHS()->getType()->isFloatingType() &&
        !B->getLHS()->getType()->isDependentType())
      return true;
    auto *M = dyn_cast<BinaryOperator>(B->getRHS()->IgnoreParenImpCasts());
    if (!M || M->getOpcode() != BO_Mul)
      return true;
    // Both factors elements of local arrays (staged tiles, registers).
    int Staged = 0;
    for (const Expr *Op : {M->getLHS(), M->getRHS()})
      if (auto *A = dyn_cast<ArraySubscriptExpr>(Op->IgnoreParenImpCasts())) {
        const Expr *Base = A->getBase()->IgnoreParenImpCasts();
        while (auto *A2 = dyn_cast<ArraySubscriptExpr>(Base))
          Base = A2->getBase()->IgnoreParenImpCasts();
        if (auto *D = dyn_cast<DeclRefExpr>(Base))
          if (auto *V = dyn_cast<VarDecl>(D->getDecl()))
            if (!isa<ParmVarDecl>(V) && V->getType()->isArrayType())
              ++Staged;
      }
    Mac = Mac || Staged == 2;
    return true;
  }
};

} // namespace gemm
} // namespace nki
} // namespace pk

void nki::emitGemmSpec(const FunctionDecl *FD, const GemmSpec &G, Kernel &K) {
  gemm::emitGemm(FD, G, K);
}

bool nki::liftMatmul(TargetContext &TC, const FunctionDecl *FD, Kernel &K,
                     std::optional<Refusal> &Why) {
  Why.reset();
  if (!FD->hasBody())
    return false;
  gemm::GemmShape Sh;
  Sh.TraverseStmt(FD->getBody());
  if (!Sh.Mma && !Sh.Mac)
    return false;
  // WMMA fragments loaded from or stored to shared tiles: the symbolic
  // execution of the staged path, with the fragment operations.
  bool Staged = !Sh.Mma || Sh.Shared;
  try {
    for (const ParmVarDecl *P : FD->parameters()) {
      QualType T = P->getType();
      if (T->isPointerType() ? !dtypeOf(T->getPointeeType()) : !dtypeOf(T))
        gemm::refuse(RuleId::PK5041, P->getLocation(),
                     "parameter '" + P->getNameAsString() + "' of type '" +
                         T.getAsString() + "' has no NKI dtype");
    }
    gemm::Gemm G = Staged ? gemm::TiledGemm(TC.Ctx(), FD).run()
                          : gemm::WmmaGemm(TC.Ctx(), FD).run();
    gemm::emitGemm(FD, G, K);
    return true;
  } catch (const gemm::Refused &R) {
    Why = R.R;
    return false;
  }
}
