//===- LiftScan.h - block inclusive scans to nc_matmul prefix sums --------===//
// Rules: PK5001, PK5004
#ifndef PK_NKI_LIFTSCAN_H
#define PK_NKI_LIFTSCAN_H

#include "Lift.h"
#include "pk/Rules.h"
#include "pk/TargetContext.h"
#include <optional>

namespace clang {
class FunctionDecl;
}

namespace pk {
namespace nki {

/// Lifts \p FD (a kernel, or the pattern of a kernel template) when it is
/// the recognised single-pass block scan (docs/nki.md): returns true and
/// fills \p K.  Returns false with \p Why set when the kernel scans across
/// lanes (__shfl_up_sync) but deviates from that shape; false with \p Why
/// empty when the kernel makes no shuffle-up scan.
bool liftScan(TargetContext &TC, const clang::FunctionDecl *FD, Kernel &K,
              std::optional<Refusal> &Why);

} // namespace nki
} // namespace pk

#endif
