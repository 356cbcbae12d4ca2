// online_sum_old_max: each term taken at the max before its own element
// (`s += expf(v - m)` before `m = fmaxf(m, v)`), never rescaled: not a sum
// of exp(x - max), refused.
// Idiom: a near miss of softmax_online_per_thread (the updates reordered).
// EXPECT: refuse PK5007 "running rescale (online softmax)"
#include <cuda_runtime.h>
#include <math.h>

__global__ void online_sum_old_max(float *out, const float *x, int rows,
                                   int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  const float *row = x + r * cols;
  float m = -INFINITY, s = 0.0f;
  for (int c = 0; c < cols; ++c) {
    float v = row[c];
    s += expf(v - m); // EXPECT-AT
    m = fmaxf(m, v);
  }
  out[r] = s;
}
