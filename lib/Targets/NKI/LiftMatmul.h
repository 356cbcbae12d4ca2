//===- LiftMatmul.h - GEMM kernels to nc_matmul tile programs -------------===//
// Rules: PK5040, PK5041, PK5042, PK5043, PK5044
#ifndef PK_NKI_LIFTMATMUL_H
#define PK_NKI_LIFTMATMUL_H

#include "Lift.h"
#include "pk/Rules.h"
#include "pk/TargetContext.h"
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace clang {
class FunctionDecl;
class ParmVarDecl;
} // namespace clang

namespace pk {
namespace nki {

/// C = alpha * A * B (+ beta * C) as a tile program: A is M x K row-major
/// (K x M when ATransposed), B K x N (N x K when BTransposed), C M x N.
struct GemmSpec {
  const clang::ParmVarDecl *A = nullptr, *B = nullptr, *C = nullptr;
  bool ATransposed = false; ///< A given as At, K x M row-major
  bool BTransposed = false; ///< B given as Bt, N x K row-major
  std::string M, N, K;      ///< size parameters (Python names)
  std::string Alpha, Beta;  ///< Python scalars; empty: 1 / no C term
  std::vector<std::pair<std::string, std::string>> Assigns; ///< var, value
  std::vector<std::pair<std::string, std::string>> Checks;  ///< cond, why
  std::string Family;
};

/// Emits \p G as the tile program of \p K: C in tiles of 128 x 512 (x 128
/// with a transposed B), K in tiles of 128 accumulated by nc_matmul in PSUM.
void emitGemmSpec(const clang::FunctionDecl *FD, const GemmSpec &G, Kernel &K);

/// Lifts \p FD (a kernel, or the pattern of a kernel template) when its
/// per-thread program is proven to compute C = alpha * A * B (+ beta * C):
/// returns true and fills \p K.  Returns false with \p Why set when the
/// kernel has the shape of a GEMM (WMMA mma_sync in a K loop, or a
/// multiply-accumulate over staged tiles) but a fact the lift relies on is
/// not proven; false with \p Why empty when the kernel is not GEMM-shaped.
bool liftMatmul(TargetContext &TC, const clang::FunctionDecl *FD, Kernel &K,
                std::optional<Refusal> &Why);

} // namespace nki
} // namespace pk

#endif
