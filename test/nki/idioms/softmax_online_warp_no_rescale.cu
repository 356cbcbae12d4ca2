// softmax_online_warp_no_rescale: softmax_online_warp without the lanes'
// sums rescaled to the row's max before they are added: each lane's sum is
// at its own max, so the sum is not the row's sum of exp(x - max) and must
// not be lifted as one.
// Idiom: a near miss of softmax_online_warp (a dropped `s *= expf(m -
// row_max)`).
// EXPECT: refuse PK5004 "combines only part of the threads' partial reductions"
#include <cuda_runtime.h>
#include <math.h>

__global__ void softmax_online_warp_no_rescale(float *out, const float *x, int rows,
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
  for (int o = 16; o > 0; o >>= 1)
    s += __shfl_xor_sync(0xffffffff, s, o);
  for (int c = lane; c < cols; c += 32)
    out[row * cols + c] = expf(xr[c] - row_max) / s;
}
