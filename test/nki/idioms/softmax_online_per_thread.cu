// softmax_online_per_thread: out[r][c] = exp(x[r][c] - max_r) / sum_c
// exp(x[r][c] - max_r), one thread per row, the max and the sum found in
// one pass ("online normalizer calculation for softmax").
// Idiom: `m = fmaxf(m, v); s = s * expf(m_old - m) + expf(v - m);`, the
// running rescale of flash-attention kernels.
// EXPECT: lift
#include <cuda_runtime.h>
#include <math.h>

__global__ void softmax_online_per_thread(float *out, const float *x, int rows,
                                          int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  const float *row = x + r * cols;
  float m = -INFINITY, s = 0.0f;
  for (int c = 0; c < cols; ++c) {
    float v = row[c];
    float m_old = m;
    m = fmaxf(m, v);
    s *= expf(m_old - m);
    s += expf(v - m);
  }
  for (int c = 0; c < cols; ++c)
    out[r * cols + c] = expf(row[c] - m) / s;
}
