// gemm_bias_relu: C = relu(A * B^T + bias[col]) (a linear layer with its
// activation fused): a contraction whose epilogue is not alpha * sum + beta
// * C, which the lifted GEMM does not compute.
// EXPECT: refuse PK5007 "epilogue is not alpha * sum + beta * C"
#include <cuda_runtime.h>

__global__ void gemm_bias_relu(float *C, const float *A, const float *W,
                               const float *bias, int M, int N, int K) {
  int n = blockIdx.x * blockDim.x + threadIdx.x;
  int m = blockIdx.y * blockDim.y + threadIdx.y;
  if (m < M && n < N) {
    float acc = bias[n];
    for (int k = 0; k < K; ++k)
      acc += A[m * K + k] * W[n * K + k];
    C[m * N + n] = fmaxf(acc, 0.0f);
  }
}
