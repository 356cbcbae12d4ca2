// online_sum_wrong_sign: a running "rescale" by exp(m - m_old), the
// inverse of the online form: not a sum of exp(x - max), refused.
// Idiom: a near miss of online_sum_coef (the rescale's sign swapped).
// EXPECT: refuse PK5007 "running rescale (online softmax)"
#include <cuda_runtime.h>
#include <math.h>

__global__ void online_sum_wrong_sign(float *out, const float *x, int rows,
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
    s = s * expf(m - mo) + expf(v - m); // EXPECT-AT
  }
  out[r] = s;
}
