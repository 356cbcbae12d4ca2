// rowmax_first_element: out[r] = max_c x[r][c], one thread per row, the
// running maximum started from the row's first element and the loop from
// column 1 (as a CPU loop is often written).
// Idiom: `m = x[r * cols]; for (c = 1; ...)`.  One reduction over the row
// from column 0, where the loop runs: the output asserts cols >= 1.
// EXPECT: lift
#include <cuda_runtime.h>

__global__ void rowmax_first_element(float *out, const float *x, int rows,
                                     int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  float m = x[r * cols];
  for (int c = 1; c < cols; ++c)
    m = fmaxf(m, x[r * cols + c]);
  out[r] = m;
}
