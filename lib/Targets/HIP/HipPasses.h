//===- HipPasses.h - passes of the HIP target -----------------------------===//
// Rules: none (declarations)
//
// Passes of the HIP target that have no declaration in pk/TargetContext.h.
//
//===----------------------------------------------------------------------===//
#ifndef PK_HIP_HIPPASSES_H
#define PK_HIP_HIPPASSES_H

#include "pk/TargetContext.h"

namespace pk::hip {

/// PK1005: kernel arguments of cudaLaunchKernel & co. become `const void *`.
void runLaunchCasts(TargetContext &TC);

/// PK1012: <hip/hip_runtime.h> first in files that use what nvcc's implicit
/// cuda_runtime.h declares (RuntimeInclude.cpp).
void insertRuntimeInclude(TargetContext &TC);

/// PK1013: cooperative-groups API that HIP lacks or defines differently on
/// 64-lane waves, flagged at each use (CoopGroupsApi.cpp).
void flagCoopGroupsApi(TargetContext &TC);
/// PK1036: each texture or surface fetch of the user's files (MI300-class
/// GPUs have no texture units; TextureFetches.cpp).
void flagTextureFetches(TargetContext &TC);

/// PK1014: <math_constants.h> becomes the definitions of its constants;
/// PK1010: other CUDA toolkit headers the header table does not map are
/// flagged (ToolkitHeaders.cpp).
void portToolkitHeaders(TargetContext &TC);

/// PK1015: CUDA host/device math that HIP declares for the device only, in
/// host code: rewritten or flagged (HostMath.cpp).
void rewriteHostMath(TargetContext &TC);

/// PK1016: under --rocm-version=5, the implicit conversions of CUDA's
/// __nv_bfloat16 are written out for hip_bfloat16 (Bfloat16.cpp).
void rocm5Bfloat16(TargetContext &TC);

/// PK1017: CUDA 12's __nv_atomic_* builtins -> __hip_atomic_*; PK1018:
/// cache-hinted loads and stores (__ldcs, __stcs, ...) -> nontemporal or
/// plain accesses (AtomicsCacheHints.cpp).
void rewriteAtomicsAndCacheHints(TargetContext &TC);

/// PK1026: nvcc's predefined macros (__NVCC__, __CUDACC__,
/// __CUDACC_VER_*__) become their values in the CUDA parse where the user's
/// files test them; HIP compilers do not define them (NvccMacros.cpp).
void writeNvccMacroValues(TargetContext &TC);
/// PK1030: Thrust's CUDA system names -> rocThrust's HIP system
/// (ThrustSystem.cpp).
void portThrustSystem(TargetContext &TC);
/// PK1031: (void **) casts for typed cudaMallocPitch under --rocm-version=5
/// (Rocm5Pitch.cpp).
void rocm5PitchCasts(TargetContext &TC);

/// PK1028: cudaMemPrefetchAsync / cudaMemAdvise forms that take a
/// cudaMemLocation (CUDA 12.2's _v2, CUDA 13's) become hipMemPrefetchAsync /
/// hipMemAdvise with a device number (MemLocation.cpp).
void rewriteMemLocationCalls(TargetContext &TC);

/// PK1024: cub::WarpReduce / cub::WarpScan without a logical warp width get
/// CUB's 32 written out, since hipCUB defaults to the wave (CubWarpWidth.cpp).
void keepCubWarpWidth(TargetContext &TC);

/// PK1032: CUDA's umin, umax, llmin, llmax, ullmin, ullmax, which HIP lacks,
/// become HIP's min/max templates at their types (IntMinMax.cpp).
void portIntMinMax(TargetContext &TC);
/// PK1034: case labels of enumerators HIP has no counterpart of become
/// comments (DeadCaseLabels.cpp).
void commentDeadCaseLabels(TargetContext &TC);

/// `check`: the PK1014, PK1015 and PK1016 edits the passes above recorded
/// become notes at their places (`check` writes nothing; CheckRewrites.cpp).
void reportRewritesAsFindings(TargetContext &TC);

} // namespace pk::hip
#endif
