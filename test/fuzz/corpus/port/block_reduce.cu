// Per-block partial sums: each block sums a grid-strided slice of the input
// with a shared-memory tree down to 64 values, then the first warp finishes
// with register shuffles.  partial[blockIdx.x] receives the block's sum.
#include <cuda_runtime.h>

#define BLOCK_SIZE 256
#define WARP_SIZE 32

__device__ __forceinline__ float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffff, v, offset);
  return v;
}

__global__ void __launch_bounds__(BLOCK_SIZE)
block_reduce_sum(const float *__restrict__ in, float *__restrict__ partial,
                 int n) {
  __shared__ float sdata[BLOCK_SIZE];
  const unsigned tid = threadIdx.x;

  float acc = 0.0f;
  for (int i = blockIdx.x * BLOCK_SIZE + tid; i < n; i += BLOCK_SIZE * gridDim.x)
    acc += in[i];
  sdata[tid] = acc;
  __syncthreads();

  // Shared-memory tree until one warp's worth of pairs is left.
  for (unsigned s = BLOCK_SIZE / 2; s > WARP_SIZE; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }

  // Last 64 values: the first warp folds the upper half in and shuffles.
  if (tid < WARP_SIZE) {
    float v = sdata[tid] + sdata[tid + WARP_SIZE];
    v = warp_sum(v);
    if (tid == 0)
      partial[blockIdx.x] = v;
  }
}
