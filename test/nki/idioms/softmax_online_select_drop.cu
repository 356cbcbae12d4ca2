// softmax_online_select_drop: softmax_online_select without the else
// branch: a term is added only where the max moves (the sum is then taken
// like an arg-max's index), so it is not the row's sum of exp(x - max) and
// the kernel is refused.
// Idiom: a near miss of softmax_online_select (a dropped `else s += ...`).
// EXPECT: refuse PK5007 "a value paired with something other than its position"
#include <cuda_runtime.h>
#include <math.h>

__global__ void softmax_online_select_drop(float *out, const float *x,
                                           int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  const float *row = x + r * cols;
  float m = -INFINITY, s = 0.0f;
  for (int c = 0; c < cols; ++c) {
    float v = row[c];
    float m_old = m;
    if (v > m) {
      m = v;
      s = s * expf(m_old - m) + expf(v - m); // EXPECT-AT
    }
  }
  for (int c = 0; c < cols; ++c)
    out[r * cols + c] = expf(row[c] - m) / s;
}
