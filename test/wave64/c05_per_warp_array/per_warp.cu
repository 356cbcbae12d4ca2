// Class 5: per-warp shared arrays.  Each warp stages its values in its own
// row of a [warps][32] array, and lane 0 adds the row up to warpSize.  The
// row has 32 slots, while warpSize is 64 on a 64-lane wave.
#include <cuda_runtime.h>

__global__ void staged_sum(const float *__restrict__ x, float *__restrict__ out) {
  __shared__ float rows[8][32];
  __shared__ float partial[8];
  const int lane = threadIdx.x % 32;
  const int warp = threadIdx.x / 32;
  rows[warp][lane] = x[blockIdx.x * blockDim.x + threadIdx.x];
  __syncwarp();
  if (lane == 0) {
    float s = 0.0f;
    for (int i = 0; i < warpSize; ++i)
      s += rows[warp][i];
    partial[warp] = s;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    float s = 0.0f;
    for (int w = 0; w < blockDim.x / 32; ++w)
      s += partial[w];
    out[blockIdx.x] = s;
  }
}
