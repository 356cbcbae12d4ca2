// col_max: out[c] = max_r x[r][c] (a max down each column).
// EXPECT: refuse PK5007 "only sums are lowered there"
#include <cuda_runtime.h>

__global__ void col_max(float *out, const float *x, int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c < cols) {
    float m = -INFINITY;
    for (int r = 0; r < rows; ++r)
      m = fmaxf(m, x[r * cols + c]);
    out[c] = m;
  }
}
