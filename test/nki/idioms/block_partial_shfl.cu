// block_partial_shfl: per-block partial sums of squares of n floats,
// partial[b] = sum of x[i]^2 over the elements block b visits (two per
// thread per step, grid-stride).
// Idiom: a while loop whose last statement is the grid stride, the second
// load under its own bound, a shared tree down to 64 and a last warp that
// reduces with __shfl_down_sync in a device function.
// EXPECT: lift
#include <cuda_runtime.h>

__device__ float warpSum(float v) {
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

__global__ void block_partial_shfl(float *partial, const float *x,
                                   unsigned int n) {
  extern __shared__ float smem[];
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x * 2 + tid;
  float acc = 0.0f;
  while (i < n) {
    float a = x[i];
    acc += a * a;
    if (i + blockDim.x < n) {
      float b = x[i + blockDim.x];
      acc += b * b;
    }
    i += blockDim.x * 2 * gridDim.x;
  }
  smem[tid] = acc;
  __syncthreads();
  for (unsigned int s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s)
      smem[tid] += smem[tid + s];
    __syncthreads();
  }
  if (tid < 32) {
    float v = smem[tid] + smem[tid + 32];
    v = warpSum(v);
    if (tid == 0)
      partial[blockIdx.x] = v;
  }
}
