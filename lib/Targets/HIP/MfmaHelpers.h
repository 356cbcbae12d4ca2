//===- MfmaHelpers.h - helper code generated into MFMA ports --------------===//
// Rules: PK3001, PK3002, PK3005
//
// The text of the helpers that the PK30xx rules generate into each ported
// file (TargetContext::Helpers): the pk_mfma namespace that replaces
// nvcuda::wmma, and the function that replaces inline-PTX mma.sync.  Layouts
// and the reasoning behind them: docs/mfma.md.
//
//===----------------------------------------------------------------------===//
#ifndef PK_TARGETS_HIP_MFMAHELPERS_H
#define PK_TARGETS_HIP_MFMAHELPERS_H

#include "pk/TargetContext.h"
#include <string>

namespace pk {
namespace mfma {

/// Helper keys (TargetContext::Helpers); they sort in emission order.
inline const HelperKey KeyWmmaCore = HelperKey{RuleId::PK3001, "a-wmma"};
inline const HelperKey KeyWmmaF16 = HelperKey{RuleId::PK3001, "b-f16"};
inline const HelperKey KeyWmmaBF16 = HelperKey{RuleId::PK3001, "c-bf16"};
inline const HelperKey KeyWmmaOps = HelperKey{RuleId::PK3001, "d-ops"};
inline const HelperKey KeyPtxMma = HelperKey{RuleId::PK3002, "ptx-mma"};
inline const HelperKey KeyWarpTiles = HelperKey{RuleId::PK3005, "warp-tiles"};

/// Name of the function that replaces the PTX mma.sync statement.
inline constexpr const char *PtxMmaFn = "__pk_mma_m16n8k16_f16f32";

/// The pk_mfma namespace, in emission order: tags, cross-lane helpers,
/// fragment and fill_fragment (core); the element types' matrix-core calls
/// (f16: __half, bf16: hip_bfloat16; both shapes); load/store/mma_sync
/// (ops).  \p S is the shape of single fragments: M16N16K16 or M32N32K8.
std::string wmmaCoreHelpers(MfmaShape S);
std::string wmmaOpsHelpers(MfmaShape S);
std::string wmmaF16Helpers();
std::string wmmaBF16Helpers(bool Rocm6);
/// fragment_array: a logical warp's 2x2 groups of fragments as 32x32 tiles
/// (PK3005); after the core, element and ops helpers.
std::string warpTileHelpers();
/// The replacement of mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32.
std::string ptxMmaHelpers();

} // namespace mfma
} // namespace pk
#endif
