// online_sum_start_one: the running rescale started from m = 0, s = 1 (an
// initial term exp(0 - m) carried along): s[r] = exp(-M) + sum_c exp(x[r][c]
// - M) with M = max(0, max_r), one thread per row.
// Idiom: online softmax with a non-zero start (the closed form keeps s0 *
// exp(m0 - M)).
// EXPECT: lift
#include <cuda_runtime.h>
#include <math.h>

__global__ void online_sum_start_one(float *out, const float *x, int rows,
                                     int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  const float *row = x + r * cols;
  float m = 0.0f, s = 1.0f;
  for (int c = 0; c < cols; ++c) {
    float v = row[c];
    float mo = m;
    m = fmaxf(m, v);
    s = s * expf(mo - m) + expf(v - m);
  }
  out[r] = s;
}
