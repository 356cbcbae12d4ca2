// argmin_rows: pos[r] = argmin_c x[r][c] (first index on ties, -1 when no
// element is below +inf) and lo[r] = min_c x[r][c].
// Idiom: one warp per row; each lane keeps (value, index) with a strict <,
// the pairs meet through an xor butterfly whose tie-break is spelled
// `!(o > b) && (o < b || j < i)`, lane 0 stores both.
// EXPECT: lift
#include <cuda_runtime.h>
#include <math.h>

__global__ void argmin_rows(float *lo, int *pos, const float *x, int rows,
                            int cols) {
  const int warpsPerBlock = blockDim.x / 32;
  int row = blockIdx.x * warpsPerBlock + threadIdx.x / 32;
  int lane = threadIdx.x % 32;
  if (row >= rows)
    return;
  const float *xr = x + (size_t)row * cols;
  float b = INFINITY;
  int i = -1;
  for (int k = lane; k < cols; k += 32) {
    float v = xr[k];
    if (v < b) {
      b = v;
      i = k;
    }
  }
#pragma unroll
  for (int mask = 16; mask >= 1; mask /= 2) {
    float o = __shfl_xor_sync(0xffffffffu, b, mask);
    int j = __shfl_xor_sync(0xffffffffu, i, mask);
    if (!(o > b) && (o < b || j < i)) {
      b = o;
      i = j;
    }
  }
  if (lane == 0) {
    lo[row] = b;
    pos[row] = i;
  }
}
