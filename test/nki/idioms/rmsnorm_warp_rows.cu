// rmsnorm_warp_rows: out[r][c] = x[r][c] / sqrt(mean_c(x[r]^2) + eps) * w[c].
// Idiom: one warp per row in a 32 x 4 block: threadIdx.x is the lane,
// threadIdx.y picks the row of the block, xor-butterfly sum of squares.
// EXPECT: lift
#include <cuda_runtime.h>
#include <stddef.h>

__global__ void rmsnorm_warp_rows(float *out, const float *x,
                                  const float *weight, int rows, int cols,
                                  float eps) {
  int row = blockIdx.x * blockDim.y + threadIdx.y;
  int lane = threadIdx.x;
  if (row >= rows)
    return;
  const float *xr = x + (size_t)row * cols;
  float ss = 0.0f;
  for (int c = lane; c < cols; c += 32) {
    float v = xr[c];
    ss += v * v;
  }
  for (int o = 16; o > 0; o >>= 1)
    ss += __shfl_xor_sync(0xffffffff, ss, o);
  float r = rsqrtf(ss / cols + eps);
  for (int c = lane; c < cols; c += 32)
    out[(size_t)row * cols + c] = xr[c] * r * weight[c];
}
