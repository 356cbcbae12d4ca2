// Class 1: full-warp masks.  Block sums: every warp reduces with
// __shfl_down_sync(0xffffffff, ...), lane 0 keeps the warp's partial, and
// thread 0 adds the partials.  With 64-lane warps, 0xffffffff names lanes
// 0-31 only.
#include <cuda_runtime.h>

#define FULL 0xffffffffu

__global__ void block_sum(const float *__restrict__ in, float *__restrict__ out,
                          int n) {
  __shared__ float partial[32];
  const int tid = threadIdx.x;
  const int lane = tid % 32;
  const int warp = tid / 32;
  const int gid = blockIdx.x * blockDim.x + tid;
  float v = gid < n ? in[gid] : 0.0f;
  for (int offset = 16; offset > 0; offset >>= 1)
    v += __shfl_down_sync(FULL, v, offset);
  if (lane == 0)
    partial[warp] = v;
  __syncthreads();
  if (tid == 0) {
    float s = 0.0f;
    for (int w = 0; w < blockDim.x / 32; ++w)
      s += partial[w];
    out[blockIdx.x] = s;
  }
}
