//===- MfmaPadding.h - LDS row pitch of MFMA staging arrays (PK3017) ------===//
// Rules: PK3017
//
// Shared-memory tiles that fragments are loaded from or stored to are padded
// by CUDA kernels for NVIDIA's 32-lane shared-memory access; the MFMA helpers
// access them with other lanes and widths.  PK3017 re-plans the row pitch
// of such an array with the LDS bank model (pk/LdsBanks.h) when every use
// of the array allows it.
//
//===----------------------------------------------------------------------===//
#ifndef PK_TARGETS_HIP_MFMAPADDING_H
#define PK_TARGETS_HIP_MFMAPADDING_H

#include "pk/LdsBanks.h"
#include "pk/TargetContext.h"

#include "clang/AST/Expr.h"
#include <vector>

namespace pk {
namespace mfma {

/// A fragment load or store (load_matrix_sync / store_matrix_sync) as the
/// MFMA rules port it.
struct StagingOp {
  const clang::CallExpr *Call = nullptr;
  const clang::Expr *Ptr = nullptr; ///< the memory pointer argument
  const clang::Expr *Ld = nullptr;  ///< the leading-dimension argument
  lds::Mapping M = lds::Mapping::Pair16;
  /// The access orders the call may use (both for an accumulator whose
  /// layout is not a constant); empty when not known.
  std::vector<lds::Traffic> Traffic;
};

/// PK3017: for every __shared__ array of constant size that \p Ops load
/// from or store to, either re-plans its row pitch (the declaration's last
/// dimension and the calls' leading dimension grow by the same amount) or,
/// when its accesses conflict and it cannot be re-planned, says why.  Calls
/// on other shared memory get a note with a conflict-free leading dimension.
void planLdsPadding(TargetContext &TC, const std::vector<StagingOp> &Ops);

} // namespace mfma
} // namespace pk

#endif
