// gemv_warp: y[r] = sum_k A[r][k] * x[k] (matrix-vector product).
// Idiom: one warp per row of A in blocks of 256 threads, lanes stride the
// row, __shfl_down_sync tree, lane 0 writes y[row].
// EXPECT: lift
#include <cuda_runtime.h>

__global__ void gemv_warp(float *y, const float *A, const float *x, int rows,
                          int cols) {
  int warpsPerBlock = blockDim.x / 32;
  int row = blockIdx.x * warpsPerBlock + threadIdx.x / 32;
  int lane = threadIdx.x % 32;
  if (row >= rows)
    return;
  float sum = 0.0f;
  for (int k = lane; k < cols; k += 32)
    sum += A[row * cols + k] * x[k];
  for (int offset = 16; offset > 0; offset /= 2)
    sum += __shfl_down_sync(0xffffffff, sum, offset);
  if (lane == 0)
    y[row] = sum;
}
