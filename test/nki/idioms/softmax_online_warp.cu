// softmax_online_warp: out[r][c] = exp(x[r][c] - max_r) / sum_c exp(x[r][c]
// - max_r), one warp per row: each lane keeps a running max and a sum
// rescaled as the max grows, then the lanes' sums are rescaled to the
// row's max and added (llm.c's fused classifier style).
// Idiom: online softmax per lane, `s *= expf(m - row_max)` before a sum
// butterfly.
// EXPECT: lift
#include <cuda_runtime.h>
#include <math.h>

__global__ void softmax_online_warp(float *out, const float *x, int rows,
                                    int cols) {
  int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  int lane = threadIdx.x % 32;
  if (row >= rows)
    return;
  const float *xr = x + row * cols;
  float m = -INFINITY, s = 0.0f;
  for (int c = lane; c < cols; c += 32) {
    float v = xr[c];
    float m_old = m;
    m = fmaxf(m, v);
    s *= expf(m_old - m);
    s += expf(v - m);
  }
  float row_max = m;
  for (int o = 16; o > 0; o >>= 1)
    row_max = fmaxf(row_max, __shfl_xor_sync(0xffffffff, row_max, o));
  s *= expf(m - row_max);
  for (int o = 16; o > 0; o >>= 1)
    s += __shfl_xor_sync(0xffffffff, s, o);
  for (int c = lane; c < cols; c += 32)
    out[row * cols + c] = expf(xr[c] - row_max) / s;
}
