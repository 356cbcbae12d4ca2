// gemv_per_thread: y[r] = sum_c A[r][c] * x[c] + bias[r], one thread per
// row walking its row (the textbook first GEMV).
// EXPECT: lift
#include <cuda_runtime.h>

__global__ void gemv_per_thread(float *y, const float *A, const float *x,
                                const float *bias, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    float s = 0.0f;
    for (int c = 0; c < cols; ++c)
      s += A[r * cols + c] * x[c];
    y[r] = s + bias[r];
  }
}
