// argmax_smem_tree: best[r] = max_c x[r][c] and at[r] = its first column,
// one block of 128 threads per row, 2-D input read through a row pointer.
// Idiom: a per-thread strided loop, then a shared-memory tree over both
// arrays `for (s = blockDim.x / 2; s > 0; s >>= 1)` with a barrier per
// step; thread 0 stores.
// EXPECT: lift
#include <cuda_runtime.h>
#include <float.h>

#define THREADS 128

__global__ void argmax_smem_tree(float *best, int *at, const float *x,
                                 int rows, int cols) {
  __shared__ float sval[THREADS];
  __shared__ int sidx[THREADS];
  int tid = threadIdx.x;
  int row = blockIdx.x;
  if (row >= rows)
    return;
  const float *p = x + row * cols;
  float m = -FLT_MAX;
  int mi = 0;
  for (int c = tid; c < cols; c += blockDim.x)
    if (p[c] > m) {
      m = p[c];
      mi = c;
    }
  sval[tid] = m;
  sidx[tid] = mi;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) {
      float ov = sval[tid + s];
      int oi = sidx[tid + s];
      if (ov > sval[tid] || (ov == sval[tid] && oi < sidx[tid])) {
        sval[tid] = ov;
        sidx[tid] = oi;
      }
    }
    __syncthreads();
  }
  if (tid == 0) {
    best[row] = sval[0];
    at[row] = sidx[0];
  }
}
