// gemm_half_nn: C = A * B with half A and B (M x K and K x N, row-major)
// multiplied in float and accumulated in float.
// EXPECT: lift
#include <cuda_runtime.h>
#include <cuda_fp16.h>

__global__ void gemm_half_nn(float *C, const __half *A, const __half *B,
                             int M, int N, int K) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < M && col < N) {
    float acc = 0.0f;
    for (int k = 0; k < K; ++k)
      acc += __half2float(A[row * K + k]) * __half2float(B[k * N + col]);
    C[row * N + col] = acc;
  }
}
