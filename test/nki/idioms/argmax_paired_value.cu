// argmax_paired_value: keeps, with the row's max of x, the value of y at
// that position (not an index): a gather at the arg-max, which has no tile
// form; must be refused with that reason.
// EXPECT: refuse PK5007 "not the loop's index"
#include <cuda_runtime.h>
#include <float.h>

__global__ void argmax_paired_value(float *out, const float *x,
                                    const float *y, int rows, int cols) {
  int row = blockIdx.x;
  if (row >= rows || threadIdx.x != 0)
    return;
  float best = -FLT_MAX;
  float at = 0.0f;
  for (int c = 0; c < cols; ++c) {
    float v = x[row * cols + c];
    if (v > best) {
      best = v;
      at = y[row * cols + c]; // EXPECT-AT
    }
  }
  out[row] = at;
}
