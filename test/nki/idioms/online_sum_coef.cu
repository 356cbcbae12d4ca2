// online_sum_coef: s[r] = sum_c 2 * exp(x[r][c] - max_r) by a running
// rescale with a coefficient on the new term, one thread per row.
// Idiom: `s = s * expf(m_old - m) + 2.0f * expf(v - m)` (a term c * exp(t
// - m) of the online form).
// EXPECT: lift
#include <cuda_runtime.h>
#include <math.h>

__global__ void online_sum_coef(float *out, const float *x, int rows,
                                int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  const float *row = x + r * cols;
  float m = -INFINITY, s = 0.0f;
  for (int c = 0; c < cols; ++c) {
    float v = row[c];
    float mo = m;
    m = fmaxf(m, v);
    s = s * expf(mo - m) + 2.0f * expf(v - m);
  }
  out[r] = s;
}
