// PK5042: the accumulation must run over the whole K range; here the inner
// loop covers half of each staged K tile, so the kernel is not a GEMM over K
// and is reported, not emitted.
// RUN: rm -rf %t && %pk port -q --to nki -o %t %s 2>&1 | FileCheck %s
// RUN: not grep -q "def half_k" %t/nki/PK5042.py
#include <cuda_runtime.h>

__global__ void half_k(const float *A, const float *B, float *C, int M, int N,
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
    for (int k = 0; k < 8; ++k)
// CHECK: PK5042.cu:[[@LINE+1]]:11: warning: kernel 'half_k' is not lifted to NKI: the accumulation does not run over{{.*}} [PK5042]
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}

// The accumulator reset in every K tile: only the last tile's products are
// stored.
__global__ void reset_acc(const float *A, const float *B, float *C, int M,
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
// CHECK: PK5042.cu:[[@LINE+1]]:9: warning: kernel 'reset_acc' is not lifted to NKI: accumulator 'acc' is assigned [PK5042]
    acc = 0.0f;
    for (int k = 0; k < 16; ++k)
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}
// CHECK-NOT: warning
