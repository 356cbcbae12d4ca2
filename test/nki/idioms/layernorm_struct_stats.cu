// layernorm_struct_stats: out[r][c] = (x[r][c] - mean_r) * rsqrt(var_r +
// eps), one thread per row, the row's statistics computed by a helper that
// returns them as a record by value.
// Idiom: `struct Stats { float mean, rstd; }` returned from __device__
// functions (a braced return, a local record returned, a copy), then read
// field by field.
// EXPECT: lift
#include <cuda_runtime.h>

struct Stats {
  float mean, rstd;
};

__device__ Stats moments(float s, float ss, int cols) {
  float mean = s / cols;
  return Stats{mean, ss / cols - mean * mean};
}

__device__ Stats row_stats(const float *row, int cols, float eps) {
  float s = 0.0f, ss = 0.0f;
  for (int c = 0; c < cols; ++c) {
    s += row[c];
    ss += row[c] * row[c];
  }
  Stats st = moments(s, ss, cols);
  st.rstd = rsqrtf(st.rstd + eps);
  return st;
}

__global__ void layernorm_struct_stats(float *out, const float *x, int rows,
                                       int cols, float eps) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  const float *row = x + r * cols;
  Stats st = row_stats(row, cols, eps);
  for (int c = 0; c < cols; ++c)
    out[r * cols + c] = (row[c] - st.mean) * st.rstd;
}
