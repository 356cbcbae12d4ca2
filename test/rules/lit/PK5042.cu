// PK5042: the accumulation must run over the whole K range; here the inner
// loop covers half of each staged K tile, so the kernel is not a GEMM over K
// and is reported, not emitted.
// RUN: rm -rf %t && %pk port -q --to nki -o %t %s 2>&1 | FileCheck %s
// RUN: not grep -q "def half_k" %t/nki/PK5042.py
// RUN: not grep -q "def uneven_k_steps" %t/nki/PK5042.py
// (also: the accumulator reset in every K tile; WMMA k-steps of 16 through a
// K tile of 40)
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <mma.h>
using namespace nvcuda;

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

// Fragment k-steps of 16 through a staged K tile of 40: k runs past the tile
// (40 is not a multiple of 16).
__global__ void uneven_k_steps(const half *A, const half *B, float *C, int M,
                               int N, int K) {
  __shared__ half As[16][48];
  __shared__ half Bs[48][16];
  __shared__ float Cs[16][16];
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
  wmma::fill_fragment(c, 0.0f);
  for (int k0 = 0; k0 < K; k0 += 40) {
    for (int e = threadIdx.x; e < 640; e += 32) {
      const int r = e / 40, cc = e % 40;
      As[r][cc] = (blockIdx.y * 16 + r < M && k0 + cc < K)
                      ? A[(blockIdx.y * 16 + r) * K + k0 + cc]
                      : __float2half(0.0f);
    }
    for (int e = threadIdx.x; e < 640; e += 32) {
      const int r = e / 16, cc = e % 16;
      Bs[r][cc] = (k0 + r < K && blockIdx.x * 16 + cc < N)
                      ? B[(k0 + r) * N + blockIdx.x * 16 + cc]
                      : __float2half(0.0f);
    }
    __syncthreads();
    for (int kk = 0; kk < 40; kk += 16) {
      wmma::load_matrix_sync(a, &As[0][kk], 48);
      wmma::load_matrix_sync(b, &Bs[kk][0], 16);
// CHECK: PK5042.cu:[[@LINE+1]]:7: warning: kernel 'uneven_k_steps' is not lifted to NKI: a loop over k steps by 16 through a K tile of 40: the steps do not split the tile evenly{{.*}} [PK5042]
      wmma::mma_sync(c, a, b, c);
    }
    __syncthreads();
  }
  wmma::store_matrix_sync(&Cs[0][0], c, 16, wmma::mem_row_major);
  __syncthreads();
  for (int e = threadIdx.x; e < 256; e += 32) {
    const int r = e / 16, cc = e % 16;
    if (blockIdx.y * 16 + r < M && blockIdx.x * 16 + cc < N)
      C[(blockIdx.y * 16 + r) * N + blockIdx.x * 16 + cc] = Cs[r][cc];
  }
}
// CHECK-NOT: warning
