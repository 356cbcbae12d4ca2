// PK6030: port-kernel's HIP helper blocks are removed and their calls go back
// to the CUDA forms: the 32-lane votes to *_sync forms (full mask where the
// whole warp reaches the call, __activemask() under a branch), the syncwarp
// helper to __syncwarp(), pk_warpSize to warpSize.
// RUN: rm -rf %t && %pk port -q --to cuda --report %t/r.json -o %t %s 2>&1 | count 0
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t/r.json
// REPORT: "rule": "PK6030"
// RUN: FileCheck %s --match-full-lines --input-file=%t/cuda/PK6030.cu
// RUN: grep -v RUN: %t/cuda/PK6030.cu | not grep "PK_LOGICAL_WARP32_HELPERS\|PK_SYNCWARP_HELPER\|__pk_"
#include <hip/hip_runtime.h>

#ifndef PK_LOGICAL_WARP32_HELPERS
#define PK_LOGICAL_WARP32_HELPERS
// port-kernel: 32-lane logical warps inside 64-lane waves [PK2002, PK2004]
static constexpr int pk_warpSize = 32;
__device__ static inline unsigned __pk_ballot32(int pred) {
  return (unsigned)(__ballot(pred) >> (__lane_id() & 32u));
}
__device__ static inline unsigned __pk_activemask32() { return __pk_ballot32(1); }
__device__ static inline bool __pk_any32(int pred) { return __pk_ballot32(pred) != 0u; }
__device__ static inline bool __pk_all32(int pred) {
  return __pk_ballot32(pred) == __pk_ballot32(1);
}
#endif // PK_LOGICAL_WARP32_HELPERS

#ifndef PK_SYNCWARP_HELPER
#define PK_SYNCWARP_HELPER
// port-kernel: a wave executes in lockstep; order its shared-memory accesses [PK2003]
__device__ static inline void __pk_syncwarp() {
  __threadfence_block();
  __builtin_amdgcn_wave_barrier();
  __threadfence_block();
}
#endif // PK_SYNCWARP_HELPER

__global__ void votes(const float *x, unsigned *out, float *y) {
  __shared__ float s[256];
  const int i = threadIdx.x;
  unsigned b = __pk_ballot32(x[i] > 0.f);
// CHECK:  unsigned b = __ballot_sync(0xffffffffu, x[i] > 0.f);
  bool any = __pk_any32(x[i] < 0.f);
// CHECK:  bool any = __any_sync(0xffffffffu, x[i] < 0.f);
  s[i] = x[i];
  __pk_syncwarp();
// CHECK:  __syncwarp();
  y[i] = s[i ^ 1] * pk_warpSize;
// CHECK:  y[i] = s[i ^ 1] * warpSize;
  if (x[i] > 1.f) {
    bool all = __pk_all32(x[i] > 2.f);
// CHECK:    bool all = __all_sync(__activemask(), x[i] > 2.f);
    out[i] = all + __pk_activemask32();
// CHECK:    out[i] = all + __activemask();
  }
  out[i] += b + any;
}
