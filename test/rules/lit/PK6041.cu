// PK6041: CUDA -> HIP -> CUDA: the rows of the shared tiles the HIP port
// padded for conflict-free MFMA loads (PK3017: 24 -> 28 halves) get their
// CUDA pitch back in the declarations and the leading dimensions, and the
// HIP port's notes about the padding go.
// RUN: rm -rf %t && %pk port -q --to hip -o %t/h %s
// RUN: %pk port -q --to cuda --report %t/r.json -o %t/c %t/h/hip/PK6041.hip 2>&1 | count 0
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t/r.json
// REPORT: "rule": "PK6041"
// RUN: FileCheck %s --match-full-lines --input-file=%t/c/cuda/PK6041.cu
// RUN: grep -v RUN: %t/c/cuda/PK6041.cu | not grep "row pitch\|+ 4\|pk_mfma\|__pk_"
#include <cuda_fp16.h>
#include <mma.h>
using namespace nvcuda;

#define SKEW 8
// One warp per 16x16 tile of C; A and B staged in padded shared tiles.
__global__ void gemm16(const __half *A, const __half *B, float *C, int N, int K) {
  __shared__ __align__(32) __half As[16][16 + SKEW];
// CHECK:  __shared__ __align__(32) __half As[16][16 + SKEW];
  __shared__ __align__(32) __half Bs[16][16 + SKEW];
// CHECK:  __shared__ __align__(32) __half Bs[16][16 + SKEW];
  const int row0 = blockIdx.y * 16, col0 = blockIdx.x * 16;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  for (int k = 0; k < K; k += 16) {
    for (int e = threadIdx.x; e < 256; e += 32) {
      As[e / 16][e % 16] = A[(size_t)(row0 + e / 16) * K + k + e % 16];
      Bs[e / 16][e % 16] = B[(size_t)(col0 + e / 16) * K + k + e % 16];
    }
    __syncwarp();
// CHECK:    __syncwarp();
    wmma::load_matrix_sync(a, &As[0][0], 16 + SKEW);
// CHECK:    nvcuda::wmma::load_matrix_sync(a, &As[0][0], 16 + SKEW);
    wmma::load_matrix_sync(b, &Bs[0][0], 16 + SKEW);
// CHECK:    nvcuda::wmma::load_matrix_sync(b, &Bs[0][0], 16 + SKEW);
    wmma::mma_sync(acc, a, b, acc);
// CHECK:    nvcuda::wmma::mma_sync(acc, a, b, acc);
    __syncwarp();
  }
  wmma::store_matrix_sync(C + (size_t)row0 * N + col0, acc, N, wmma::mem_row_major);
}
