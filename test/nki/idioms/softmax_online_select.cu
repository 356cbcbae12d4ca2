// softmax_online_select: out[r][c] = exp(x[r][c] - max_r) / sum_c
// exp(x[r][c] - max_r), one thread per row, the online recurrence written
// with a branch: where the max moves, the sum is rescaled; elsewhere the
// new term is added at the current max (llm.c's online softmax kernel 1,
// in float).
// Idiom: `if (v > m) { m = v; s = s * expf(m_old - m) + expf(v - m); } else
// s += expf(v - m);`.
// EXPECT: lift
#include <cuda_runtime.h>
#include <math.h>

__global__ void softmax_online_select(float *out, const float *x, int rows,
                                      int cols) {
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
      s = s * expf(m_old - m) + expf(v - m);
    } else {
      s += expf(v - m);
    }
  }
  for (int c = 0; c < cols; ++c)
    out[r * cols + c] = expf(row[c] - m) / s;
}
