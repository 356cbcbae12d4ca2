// PK5043: the lifted GEMM epilogues are alpha * acc + beta * C; a constant
// added to the accumulator has no such form and is reported at the store.
// RUN: rm -rf %t && %pk port -q --to nki -o %t %s 2>&1 | FileCheck %s
// RUN: not grep -q "def biased" %t/nki/PK5043.py
#include <cuda_runtime.h>

__global__ void biased(const float *A, const float *B, float *C, int M, int N,
                       int K) {
  __shared__ float As[16][16];
  __shared__ float Bs[16][16];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += 16) {
    As[ty][tx] = (row < M && k0 + tx < K) ? A[row * K + k0 + tx] : 0.0f;
    Bs[ty][tx] = (k0 + ty < K && col < N) ? B[(k0 + ty) * N + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < 16; ++k)
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (row < M && col < N)
// CHECK: PK5043.cu:[[@LINE+1]]:22: warning: kernel 'biased' is not lifted to NKI: the stored value is not 'alpha * acc + beta * C[same element]'{{.*}} [PK5043]
    C[row * N + col] = acc + 1.0f;
}
// CHECK-NOT: warning
