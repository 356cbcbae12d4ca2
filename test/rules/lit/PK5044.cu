// PK5044: the store of C must be bounded by both of C's sizes; without the
// column bound the CUDA kernel writes past the end of each row (into the
// next one), which the NKI GEMM would not do: reported, not emitted.
// RUN: rm -rf %t && %pk port -q --to nki -o %t %s 2>&1 | FileCheck %s
// RUN: not grep -q "def rows_only" %t/nki/PK5044.py
#include <cuda_runtime.h>

__global__ void rows_only(const float *A, const float *B, float *C, int M,
                          int N, int K) {
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
  if (row < M)
// CHECK: PK5044.cu:[[@LINE+1]]:22: warning: kernel 'rows_only' is not lifted to NKI: the store of C is not guarded by 'row < M && col < N'{{.*}} [PK5044]
    C[row * N + col] = acc;
}
// CHECK-NOT: warning
