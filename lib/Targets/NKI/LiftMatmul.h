//===- LiftMatmul.h - GEMM kernels to nc_matmul tile programs -------------===//
// Rules: PK5040, PK5041, PK5042, PK5043, PK5044
#ifndef PK_NKI_LIFTMATMUL_H
#define PK_NKI_LIFTMATMUL_H

#include "Lift.h"
#include "pk/Rules.h"
#include "pk/TargetContext.h"
#include <optional>

namespace clang {
class FunctionDecl;
}

namespace pk {
namespace nki {

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
