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

// A WMMA tile bounded by rows only: warps past N would store past the end of
// C's rows.
#include <cuda_fp16.h>
#include <mma.h>
using namespace nvcuda;

__global__ void wmma_rows_only(const half *A, const half *B, float *C, int M,
                               int N, int K) {
  const int tileRow = blockIdx.y, tileCol = blockIdx.x;
// CHECK: PK5044.cu:[[@LINE+1]]:3: warning: kernel 'wmma_rows_only' is not lifted to NKI: no early return bounds the C tile's row and column{{.*}} [PK5044]
  if (tileRow * 16 >= M)
    return;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
  wmma::fill_fragment(c, 0.0f);
  for (int k = 0; k < K; k += 16) {
    wmma::load_matrix_sync(a, A + tileRow * 16 * K + k, K);
    wmma::load_matrix_sync(b, B + k * N + tileCol * 16, N);
    wmma::mma_sync(c, a, b, c);
  }
  wmma::store_matrix_sync(C + tileRow * 16 * N + tileCol * 16, c, N,
                          wmma::mem_row_major);
}
// CHECK-NOT: warning
