// gemm_nt_naive: C = alpha * A * B^T (A is M x K, B is N x K, row-major),
// the "NT" layout of a linear layer's weight.
// Idiom: one thread per output element over a 2-D grid, a plain loop over K.
// EXPECT: lift
#include <cuda_runtime.h>

__global__ void gemm_nt_naive(float *C, const float *A, const float *B,
                              float alpha, int M, int N, int K) {
  int n = blockIdx.x * blockDim.x + threadIdx.x;
  int m = blockIdx.y * blockDim.y + threadIdx.y;
  if (m < M && n < N) {
    float acc = 0.0f;
    for (int k = 0; k < K; ++k)
      acc += A[m * K + k] * B[n * K + k];
    C[m * N + n] = alpha * acc;
  }
}
