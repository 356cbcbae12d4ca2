// block_partial_overlap: meant to be per-block partial sums, two elements
// per thread per step, but the grid stride is blockDim.x * gridDim.x
// instead of 2 * blockDim.x * gridDim.x: the next round of every block
// reads half of its neighbour's chunk again, so elements are counted
// twice.  A near miss of block_partial_syncwarp that must be refused.
// EXPECT: refuse PK5007 "the blocks' elements overlap or leave gaps"
#include <cuda_runtime.h>

__global__ void block_partial_overlap(const float *in, float *partial,
                                      unsigned int n) {
  __shared__ float sdata[256];
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * (blockDim.x * 2) + tid;
  float sum = 0.0f;
  for (; i < n; i += blockDim.x * gridDim.x) {
    sum += in[i];
    if (i + blockDim.x < n)
      sum += in[i + blockDim.x];
  }
  sdata[tid] = sum;
  __syncthreads();
  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    partial[blockIdx.x] = sdata[0]; // EXPECT-AT
}
