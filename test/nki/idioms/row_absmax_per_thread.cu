// row_absmax_per_thread: out[r] = max_c |x[r][c]| (the scale of a per-row
// quantisation), one thread per row, the running maximum started at 0 and
// kept with a ternary.
// EXPECT: lift
#include <cuda_runtime.h>

__global__ void row_absmax_per_thread(float *out, const float *x, int rows,
                                      int cols) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  float m = 0.0f;
  for (int c = 0; c < cols; c++) {
    float a = fabsf(x[r * cols + c]);
    m = a > m ? a : m;
  }
  out[r] = m;
}
