// block_partial_max_ternary: partial[b] = max of x[i] over block b's chunk
// of blockDim.x elements; a thread past the end contributes -FLT_MAX.
// Idiom: one element per thread read as `i < n ? x[i] : -FLT_MAX`, a
// shared-memory tree with fmaxf.  The constant counts only in the blocks
// that have a thread past the end (a whole block of -inf stays -inf).
// EXPECT: lift
#include <cuda_runtime.h>
#include <float.h>

__global__ void block_partial_max_ternary(float *partial, const float *x,
                                          int n) {
  extern __shared__ float smem[];
  int tid = threadIdx.x;
  int i = blockIdx.x * blockDim.x + tid;
  smem[tid] = i < n ? x[i] : -FLT_MAX;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      smem[tid] = fmaxf(smem[tid], smem[tid + s]);
    __syncthreads();
  }
  if (tid == 0)
    partial[blockIdx.x] = smem[0];
}
