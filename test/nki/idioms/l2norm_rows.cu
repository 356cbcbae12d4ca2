// l2norm_rows: out[r] = x[r] / max(||x[r]||_2, 1e-12), row by row.
// Idiom: one warp per row in 1-D blocks of 128 (warp = threadIdx.x / 32,
// lane = threadIdx.x % 32), xor-butterfly sum of squares, a clamp with
// fmaxf before the division.
// EXPECT: lift
#include <cuda_runtime.h>

__global__ void l2norm_rows(float *out, const float *x, int rows, int cols) {
  int warp = threadIdx.x / 32;
  int lane = threadIdx.x % 32;
  int row = blockIdx.x * (blockDim.x / 32) + warp;
  if (row >= rows)
    return;
  float ss = 0.0f;
  for (int c = lane; c < cols; c += 32) {
    float v = x[row * cols + c];
    ss += v * v;
  }
  for (int o = 16; o > 0; o >>= 1)
    ss += __shfl_xor_sync(0xffffffff, ss, o);
  float norm = fmaxf(sqrtf(ss), 1e-12f);
  for (int c = lane; c < cols; c += 32)
    out[row * cols + c] = x[row * cols + c] / norm;
}
