// Second translation unit of the PK9002 test: nothing here depends on the
// 32-lane warp layout, so its kernel gets native 64-lane warps.
#include "warp_reduce.cuh"

__global__ void block_total(const float *in, float *out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float v = warp_sum(i < n ? in[i] : 0.f);
  if (threadIdx.x % warpSize == 0)
    atomicAdd(out, v);
}
