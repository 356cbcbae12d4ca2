// rowsum_first_twice: out[r] = x[r][0] + sum_c x[r][c], one thread per
// row: the first element is read before a loop that also starts at it, so
// it counts twice (a bug in a row sum, or a bias on purpose).
// Idiom: `s = x[r * cols]; for (c = 0; ...) s += ...`.  Not one reduction:
// refused at the fixed column's read, never lifted as the row's sum.
// EXPECT: refuse PK5007 "fixed column 0 of the row"
#include <cuda_runtime.h>

__global__ void rowsum_first_twice(float *out, const float *x, int rows,
                                   int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  float s = x[r * cols];
  for (int c = 0; c < cols; ++c)
    s += x[r * cols + c];
  out[r] = s; // EXPECT-AT
}
