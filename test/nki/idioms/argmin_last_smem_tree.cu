// argmin_last_smem_tree: lo[r] = min_c x[r][c] and at[r] = the LAST column
// holding it, one block of 128 threads per row.
// Idiom: a per-thread strided loop that takes a new index on `<=` (keeping
// its last minimum), then a shared-memory tree over both arrays whose
// combine prefers the larger index on ties, written with a helper called
// only where `tid < s` (C's short-circuit: the other threads must not read
// sval[tid + s] past the array).
// EXPECT: lift
#include <cuda_runtime.h>
#include <float.h>

#define THREADS 128

__device__ __forceinline__ bool takes(float ov, int oi, float v, int i) {
  return ov < v || (ov == v && oi > i);
}

__global__ void argmin_last_smem_tree(float *lo, int *at, const float *x,
                                      int rows, int cols) {
  __shared__ float sval[THREADS];
  __shared__ int sidx[THREADS];
  int tid = threadIdx.x;
  int row = blockIdx.x;
  if (row >= rows)
    return;
  const float *p = x + row * cols;
  float m = FLT_MAX;
  int mi = 0;
  for (int c = tid; c < cols; c += blockDim.x)
    if (p[c] <= m) {
      m = p[c];
      mi = c;
    }
  sval[tid] = m;
  sidx[tid] = mi;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s && takes(sval[tid + s], sidx[tid + s], sval[tid], sidx[tid])) {
      sval[tid] = sval[tid + s];
      sidx[tid] = sidx[tid + s];
    }
    __syncthreads();
  }
  if (tid == 0) {
    lo[row] = sval[0];
    at[row] = sidx[0];
  }
}
