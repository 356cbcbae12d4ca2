// argmax_first_element: idx[r] = the first column of the row's maximum, one
// thread per row, the best pair started from column 0 and the loop from 1.
// Idiom: `best = x[r][0]; bi = 0; for (c = 1; ...) if (v > best) {...}`.
// EXPECT: lift
#include <cuda_runtime.h>

__global__ void argmax_first_element(int *idx, const float *x, int rows,
                                     int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  float best = x[r * cols];
  int bi = 0;
  for (int c = 1; c < cols; ++c) {
    float v = x[r * cols + c];
    if (v > best) {
      best = v;
      bi = c;
    }
  }
  idx[r] = bi;
}
