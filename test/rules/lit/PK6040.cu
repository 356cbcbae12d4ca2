// PK6040: a CUDA -> HIP -> CUDA round trip of a warp's 2x2 grid of WMMA
// fragments: the HIP port's MFMA helpers and fragment_array grouping
// (PK3001, PK3005) go back to nvcuda::wmma fragments, arrays of them and one
// mma_sync per fragment of the accumulator.
// RUN: rm -rf %t && %pk port -q --to hip -o %t/h %s
// RUN: %pk port -q --to cuda -o %t/c %t/h/hip/PK6040.hip 2>&1 | count 0
// RUN: FileCheck %s --match-full-lines --input-file=%t/c/cuda/PK6040.cu
// RUN: grep -v RUN: %t/c/cuda/PK6040.cu | not grep "pk_mfma\|PK_MFMA\|__lane_id\|__builtin_amdgcn"
// CHECK: #include <mma.h> // port-kernel: WMMA fragments [PK6040]
#include <cuda_fp16.h>
#include <mma.h>
using namespace nvcuda;

// One warp computes a 32x32 tile of C = A * B (A row-major, B col-major,
// K a multiple of 16) as a 2x2 grid of 16x16 fragments.
__global__ void gemm32(const __half *A, const __half *B, float *C, int N, int K) {
  const int row0 = blockIdx.y * 32, col0 = blockIdx.x * 32;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a[2];
// CHECK:  nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 16, 16, 16, __half, nvcuda::wmma::row_major> a[2];
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> b[2];
// CHECK:  nvcuda::wmma::fragment<nvcuda::wmma::matrix_b, 16, 16, 16, __half, nvcuda::wmma::col_major> b[2];
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];
// CHECK:  nvcuda::wmma::fragment<nvcuda::wmma::accumulator, 16, 16, 16, float> acc[2][2];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      wmma::fill_fragment(acc[i][j], 0.0f);
// CHECK:      nvcuda::wmma::fill_fragment(acc[i][j], 0.0f);
  for (int k = 0; k < K; k += 16) {
    for (int i = 0; i < 2; ++i)
      wmma::load_matrix_sync(a[i], A + (size_t)(row0 + 16 * i) * K + k, K);
// CHECK:      nvcuda::wmma::load_matrix_sync(a[i], A + (size_t)(row0 + 16 * i) * K + k, K);
    for (int j = 0; j < 2; ++j)
      wmma::load_matrix_sync(b[j], B + (size_t)(col0 + 16 * j) * K + k, K);
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j)
        wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
// CHECK:    for (int pk_i = 0; pk_i < 2; ++pk_i)
// CHECK-NEXT:      for (int pk_j = 0; pk_j < 2; ++pk_j)
// CHECK-NEXT:        nvcuda::wmma::mma_sync(acc[pk_i][pk_j], a[pk_i], b[pk_j], acc[pk_i][pk_j]);
  }
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      wmma::store_matrix_sync(C + (size_t)(row0 + 16 * i) * N + col0 + 16 * j,
                              acc[i][j], N, wmma::mem_row_major);
// CHECK:                              acc[i][j], N, nvcuda::wmma::mem_row_major);
}
