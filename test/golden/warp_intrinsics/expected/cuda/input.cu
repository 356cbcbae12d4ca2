#include <cuda_runtime.h>

#define FULL_MASK 0xffffffff
#define SHFL_DOWN(v, o) __shfl_down_sync(FULL_MASK, v, o)

__device__ float warp_sum(float v) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
    v += SHFL_DOWN(v, offset);
  return v;
}

__device__ int warp_max(int v) {
  for (int m = 16; m > 0; m >>= 1)
    v = max(v, __shfl_xor_sync(0xffffffff, v, m));
  return __shfl_sync(0xffffffff, v, 0);
}

__global__ void votes(const int *in, unsigned *out, float *sums) {
  int lane = threadIdx.x & 31;
  int x = in[threadIdx.x];
  unsigned b = __ballot_sync(FULL_MASK, x > 0);
  bool any = __any_sync(0xffffffff, x < 0);
  bool all = __all_sync(0xffffffff, x != 0);
  unsigned active = __activemask();
  int prev = __shfl_up_sync(0xffffffff, x, 1);
  int src = __shfl_sync(active, x, lane + 1);     // partial mask: flagged
  __syncwarp();
  if (lane == 0) out[threadIdx.x / 32] = b + any + all + __popc(active);
  sums[threadIdx.x] = warp_sum((float)x) + warp_max(prev) + src;
}
