// block_partial_max_half_tree: a per-block maximum whose tree starts at
// blockDim.x / 4, so the upper half of the block's values is never read.
// Idiom: an off-by-one-level tree (a real bug); refused, naming the
// element left out, instead of lifting what the code does not compute.
// EXPECT: refuse PK5004 "leaves out element"
#include <cuda_runtime.h>
#include <float.h>

__global__ void block_partial_max_half_tree(float *partial, const float *x,
                                            int n) {
  __shared__ float smem[256];
  int tid = threadIdx.x;
  int i = blockIdx.x * blockDim.x + tid;
  smem[tid] = i < n ? x[i] : -FLT_MAX;
  __syncthreads();
  for (int s = blockDim.x / 4; s > 0; s >>= 1) {
    if (tid < s)
      smem[tid] = fmaxf(smem[tid], smem[tid + s]);
    __syncthreads();
  }
  if (tid == 0)
    partial[blockIdx.x] = smem[0]; // EXPECT-AT
}
