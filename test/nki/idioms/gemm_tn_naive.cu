// gemm_tn_naive: C = A^T * B with A given as K x M and B as K x N (both
// row-major): the "TN" layout of a weight-gradient GEMM.
// Idiom: one thread per output element, the row on threadIdx.x (x walks
// the rows, a transposed thread mapping), the sizes in non-const locals.
// EXPECT: lift
#include <cuda_runtime.h>

__global__ void gemm_tn_naive(float *C, const float *A, const float *B, int M,
                              int N, int K) {
  int m = blockIdx.x * blockDim.x + threadIdx.x;
  int n = blockIdx.y * blockDim.y + threadIdx.y;
  if (m >= M || n >= N)
    return;
  float sum = 0.0f;
  int k = 0;
  for (k = 0; k < K; k++)
    sum += A[k * M + m] * B[k * N + n];
  C[m * N + n] = sum;
}
