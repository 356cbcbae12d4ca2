// mse_rows: out[r] = mean_c (a[r][c] - b[r][c])^2, the mean squared error of
// each row of two inputs.
// Idiom: one warp per row, __shfl_down_sync tree, lane 0 stores out[row].
// EXPECT: lift
#include <cuda_runtime.h>

__global__ void mse_rows(float *out, const float *a, const float *b, int rows,
                         int cols) {
  int lane = threadIdx.x & 31;
  int row = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
  if (row >= rows)
    return;
  float s = 0.0f;
  for (int c = lane; c < cols; c += 32) {
    float d = a[row * cols + c] - b[row * cols + c];
    s += d * d;
  }
  for (int o = 16; o > 0; o >>= 1)
    s += __shfl_down_sync(0xffffffff, s, o);
  if (lane == 0)
    out[row] = s / cols;
}
