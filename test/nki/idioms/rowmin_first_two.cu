// rowmin_first_two: out[r] = min_c x[r][c], one thread per row, the
// running minimum started from the row's first two elements.
// Idiom: `m = fminf(x[r][0], x[r][1]); for (c = 2; ...)`: one reduction
// from column 0 where the loop runs (the output asserts cols >= 2).
// EXPECT: lift
#include <cuda_runtime.h>

__global__ void rowmin_first_two(float *out, const float *x, int rows,
                                 int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  float m = fminf(x[r * cols], x[r * cols + 1]);
  for (int c = 2; c < cols; ++c)
    m = fminf(m, x[r * cols + c]);
  out[r] = m;
}
