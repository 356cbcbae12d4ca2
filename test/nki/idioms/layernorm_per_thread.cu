// layernorm_per_thread: y[r][c] = (x[r][c] - mean_r) * rstd_r * g[c] + b[c]
// with the row's mean and 1 / sqrt(var + eps), one thread per row; the
// mean and rstd are stored too (for a backward pass).
// Idiom: index arithmetic on the flat arrays, two reduction loops, a
// division by the column count, rsqrtf.
// EXPECT: lift
#include <cuda_runtime.h>

__global__ void layernorm_per_thread(float *y, float *mean, float *rstd,
                                     const float *x, const float *g,
                                     const float *b, int rows, int cols,
                                     float eps) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    float mu = 0.0f;
    for (int c = 0; c < cols; ++c)
      mu += x[r * cols + c];
    mu = mu / cols;
    float v = 0.0f;
    for (int c = 0; c < cols; ++c) {
      float d = x[r * cols + c] - mu;
      v += d * d;
    }
    v = v / cols;
    float s = rsqrtf(v + eps);
    for (int c = 0; c < cols; ++c)
      y[r * cols + c] = (x[r * cols + c] - mu) * s * g[c] + b[c];
    mean[r] = mu;
    rstd[r] = s;
  }
}
