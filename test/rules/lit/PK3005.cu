// PK3005: a warp's R x C accumulators acc[R][C] with A fragments a[R] and B
// fragments b[C] (R, C even) multiplied by one loop nest become
// pk_mfma::fragment_array tiles of 32x32, and the nest one pk_mfma::mma_sync
// on v_mfma_f32_32x32x8 (--mfma-shape=auto, the default, and 32x32x8).
// RUN: rm -rf %t && %pk port -q --to hip --report %t/r.json -o %t %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DIAG --allow-empty
// RUN: FileCheck %s --match-full-lines --input-file=%t/hip/PK3005.hip
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t/r.json
// With --mfma-shape=16x16x16 the arrays stay 16x16 fragments.
// RUN: %pk port -q --to hip --mfma-shape=16x16x16 -o %t/s16 %s
// RUN: FileCheck %s --check-prefix=S16 --match-full-lines --input-file=%t/s16/hip/PK3005.hip

// REPORT: "PK3005": {{[0-9]+}}
// REPORT: "replacement": "pk_mfma::fragment_array<",
// REPORT-NEXT: "rule": "PK3005",
// REPORT-NEXT: "why": "the fragments of this array form 32x32 tiles of one logical warp: each v_mfma_f32_32x32x8 computes a whole 32x32 tile (four of the CUDA fragments), no product discarded"
// REPORT: "replacement": "{{ *}}pk_mfma::mma_sync(acc, a, b, acc)",
// REPORT-NEXT: "rule": "PK3005",
// REPORT-NEXT: "why": "one call multiplies every 32x32 tile of the logical warp (v_mfma_f32_32x32x8, two per 16-wide k-step and tile) in place of the loops over its 16x16 fragments"

// S16-NOT: {{^ *pk_mfma::fragment_array<}}

#include <cuda_fp16.h>
#include <mma.h>
// CHECK: return __builtin_amdgcn_mfma_f32_32x32x8f16(va, vb, c, 0, 0, 0);
// CHECK: template <class Frag, int R, int C = 0> struct fragment_array;

using namespace nvcuda;

// Four warps per block in a 2 x 2 grid, each computing a 32x32 tile of C as
// 2 x 2 fragments of 16x16.
__global__ void warpTileGemm(const half *A, const half *B, float *C, int M,
                             int N, int K) {
  const int warp = threadIdx.x / 32;
  const int warpRow = (blockIdx.y * 2 + warp / 2) * 32;
  const int warpCol = (blockIdx.x * 2 + warp % 2) * 32;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a[2];
// CHECK:   pk_mfma::fragment_array<pk_mfma::fragment<pk_mfma::matrix_a, 16, 16, 16, half, pk_mfma::row_major>, 2> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b[2];
// CHECK:   pk_mfma::fragment_array<pk_mfma::fragment<pk_mfma::matrix_b, 16, 16, 16, half, pk_mfma::row_major>, 2> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];
// CHECK:   pk_mfma::fragment_array<pk_mfma::fragment<pk_mfma::accumulator, 16, 16, 16, float>, 2, 2> acc;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      wmma::fill_fragment(acc[i][j], 0.0f);
// CHECK:       pk_mfma::fill_fragment(acc[i][j], 0.0f);
  for (int k = 0; k < K; k += 16) {
    for (int i = 0; i < 2; ++i)
      wmma::load_matrix_sync(a[i], A + (size_t)(warpRow + i * 16) * K + k, K);
// CHECK:       pk_mfma::load_matrix_sync(a[i], A + (size_t)(warpRow + i * 16) * K + k, K);
    for (int j = 0; j < 2; ++j)
      wmma::load_matrix_sync(b[j], B + (size_t)k * N + warpCol + j * 16, N);
// CHECK:       pk_mfma::load_matrix_sync(b[j], B + (size_t)k * N + warpCol + j * 16, N);
#pragma unroll
    for (int i = 0; i < 2; ++i)
#pragma unroll
      for (int j = 0; j < 2; ++j)
        wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
// CHECK-NOT: {{^}}#pragma unroll
// CHECK-NOT: {{^ *pk_mfma::mma_sync\(acc\[i\]}}
// CHECK:     pk_mfma::mma_sync(acc, a, b, acc);
// S16:         pk_mfma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
  }
// CHECK:   }
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      wmma::store_matrix_sync(C + (size_t)(warpRow + i * 16) * N + warpCol + j * 16,
                              acc[i][j], N, wmma::mem_row_major);
// CHECK:       pk_mfma::store_matrix_sync(C + (size_t)(warpRow + i * 16) * N + warpCol + j * 16,
// CHECK-NEXT:                               acc[i][j], N, pk_mfma::mem_row_major);
}
// DIAG-NOT: warning
// DIAG-NOT: [PK3016]
