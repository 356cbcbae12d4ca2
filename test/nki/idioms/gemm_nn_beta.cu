// gemm_nn_beta: C = alpha * A * B + beta * C (A M x K, B K x N, row-major):
// the BLAS sgemm update, with the accumulator in a device function.
// EXPECT: lift
#include <cuda_runtime.h>

__device__ float dot_col(const float *a_row, const float *b, int n, int col,
                         int K) {
  float s = 0.0f;
  for (int k = 0; k < K; ++k)
    s += a_row[k] * b[k * n + col];
  return s;
}

__global__ void gemm_nn_beta(const float *A, const float *B, float *C, int M,
                             int N, int K, float alpha, float beta) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < M && col < N) {
    float acc = dot_col(A + row * K, B, N, col, K);
    C[row * N + col] = alpha * acc + beta * C[row * N + col];
  }
}
