// rowsum_first_twice: out[r] = x[r][0] + sum_c x[r][c], one thread per
// row: the first element is read before a loop that also starts at it, so
// it counts twice (a bug in a row sum, or a bias on purpose).
// Idiom: `s = x[r * cols]; for (c = 0; ...) s += ...`.  Not one reduction:
// lifted as the first column (a per-row value) plus the row's sum, never
// as the row's sum alone.
// EXPECT: lift
#include <cuda_runtime.h>

__global__ void rowsum_first_twice(float *out, const float *x, int rows,
                                   int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  float s = x[r * cols];
  for (int c = 0; c < cols; ++c)
    s += x[r * cols + c];
  out[r] = s;
}
