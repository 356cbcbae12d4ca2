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

#define FULL_MASK 0xffffffff
#define SHFL_DOWN(v, o) __shfl_down(v, o, 32)

__device__ float warp_sum(float v) {
  for (int offset = pk_warpSize / 2; offset > 0; offset /= 2)
    v += SHFL_DOWN(v, offset);
  return v;
}

__device__ int warp_max(int v) {
  for (int m = 16; m > 0; m >>= 1)
    v = max(v, __shfl_xor(v, m, 32));
  return __shfl(v, 0, 32);
}

// port-kernel: note: kernel votes: logical 32-lane warps inside 64-lane waves because __shfl_up_sync(1): outside a full-warp scan, lanes 32..31+d read the lower half under 64-lane warps (line 25) [PK2000]
__global__ void votes(const int *in, unsigned *out, float *sums) {
  int lane = threadIdx.x & 31;
  int x = in[threadIdx.x];
  unsigned b = __pk_ballot32(x > 0);
  bool any = __pk_any32(x < 0);
  bool all = __pk_all32(x != 0);
  unsigned active = __pk_activemask32();
  int prev = __shfl_up(x, 1, 32);
  // port-kernel: warning: __shfl_sync: mask 'active' is not a constant; the HIP form has no mask, so this is correct only if the mask names exactly the lanes that reach the call [PK2010]
  int src = __shfl(x, (lane + 1) & 31, 32);     // partial mask: flagged
  __pk_syncwarp();
  if (lane == 0) out[threadIdx.x / 32] = b + any + all + __popc(active);
  sums[threadIdx.x] = warp_sum((float)x) + warp_max(prev) + src;
}
