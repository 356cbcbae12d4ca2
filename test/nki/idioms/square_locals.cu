// square_locals: y[i] = x[i] * x[i].
// Idiom: every launch coordinate copied into a plain (non-const) int local
// first (`int tx = threadIdx.x; int bx = blockIdx.x; int bdim = blockDim.x;`),
// none reassigned, and an early return past the end.
// EXPECT: lift
#include <cuda_runtime.h>

__global__ void square_locals(float *y, const float *x, int n) {
  int tx = threadIdx.x;
  int bx = blockIdx.x;
  int bdim = blockDim.x;
  int gid = bx * bdim + tx;
  if (gid >= n)
    return;
  y[gid] = x[gid] * x[gid];
}
