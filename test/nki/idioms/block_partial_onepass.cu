// block_partial_onepass: per-block partial sums of n floats, partial[b] =
// sum of the elements block b visits (one per thread per step,
// grid-stride).
// Idiom: a grid-stride for loop of blockDim.x * gridDim.x, then a
// shared-memory tree driven by blockDim.x down to one thread.
// EXPECT: lift
#include <cuda_runtime.h>

__global__ void block_partial_onepass(const float *x, float *partial,
                                      int n) {
  __shared__ float s[1024];
  int tid = threadIdx.x;
  float acc = 0.0f;
  for (int i = blockIdx.x * blockDim.x + tid; i < n;
       i += blockDim.x * gridDim.x)
    acc += x[i];
  s[tid] = acc;
  __syncthreads();
  for (unsigned int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (tid < stride)
      s[tid] += s[tid + stride];
    __syncthreads();
  }
  if (tid == 0)
    partial[blockIdx.x] = s[0];
}
