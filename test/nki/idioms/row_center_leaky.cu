// row_center_leaky: y[r][c] = leaky(x[r][c] - mean_r) with a slope for the
// negative side, one thread per row.
// Idiom: a row reduction, then a per-element `v > 0 ? v : slope * v`.
// The kernel is a row program; the choice is not a max or min, and NKI has
// no select: refused with that reason (over the other lifters').
// EXPECT: refuse PK5007 "no select operation"
#include <cuda_runtime.h>

__global__ void row_center_leaky(float *y, const float *x, int rows,
                                 int cols, float slope) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  float s = 0.f;
  for (int c = 0; c < cols; ++c)
    s += x[r * cols + c];
  float mean = s / cols;
  for (int c = 0; c < cols; ++c) {
    float v = x[r * cols + c] - mean;
    y[r * cols + c] = v > 0.f ? v : slope * v; // EXPECT-AT
  }
}
