// block_partial_max: partial[b] = max of x[i] over the chunks of blockDim.x
// elements block b visits (grid-stride), -FLT_MAX for a block with none:
// the first pass of a two-pass max (a softmax over a long vector).
// Idiom: fmaxf from -FLT_MAX in the loop, a shared-memory tree with
// fmaxf, thread 0 stores.
// EXPECT: lift
#include <cuda_runtime.h>
#include <float.h>

__global__ void block_partial_max(float *partial, const float *x, int n) {
  __shared__ float smem[256];
  int tid = threadIdx.x;
  float m = -FLT_MAX;
  for (int i = blockIdx.x * blockDim.x + tid; i < n;
       i += blockDim.x * gridDim.x)
    m = fmaxf(m, x[i]);
  smem[tid] = m;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      smem[tid] = fmaxf(smem[tid], smem[tid + s]);
    __syncthreads();
  }
  if (tid == 0)
    partial[blockIdx.x] = smem[0];
}
