// row_normalize_inplace: x[r][c] /= sum_c x[r][c], in place, one thread per
// row (a probability table normalised per row).
// Idiom: the row summed in one loop, then divided in place in another.
// EXPECT: lift
#include <cuda_runtime.h>

__global__ void row_normalize_inplace(float *x, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  float s = 0.0f;
  for (int c = 0; c < cols; ++c)
    s += x[r * cols + c];
  for (int c = 0; c < cols; ++c)
    x[r * cols + c] /= s;
}
