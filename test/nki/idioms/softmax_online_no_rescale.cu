// softmax_online_no_rescale: softmax_online_per_thread without the running
// sum rescaled when the max grows: the sum mixes terms at different maxima
// and is no tile reduction, so the kernel is refused with that reason.
// Idiom: a near miss of softmax_online_per_thread (a dropped `s *=
// expf(m_old - m)`).
// EXPECT: refuse PK5007 "running rescale (online softmax)"
#include <cuda_runtime.h>
#include <math.h>

__global__ void softmax_online_no_rescale(float *out, const float *x, int rows,
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
    s += expf(v - m); // EXPECT-AT
  }
  for (int c = 0; c < cols; ++c)
    out[r * cols + c] = expf(row[c] - m) / s;
}
