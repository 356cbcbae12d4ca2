// PK3003: an early `if (cond) return;` of a warp (cond depends on threadIdx)
// before fragment operations becomes a wave-uniform return taken when both
// logical warps are done; the finished warp's fragment loads and stores are
// masked with __pk_mfma_live, and memory traffic after the return is guarded.
// RUN: rm -rf %t && %pk port -q --to hip --report %t/r.json -o %t %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DIAG
// RUN: FileCheck %s --match-full-lines --input-file=%t/hip/PK3003.hip
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t/r.json

// REPORT: "PK3003": {{[0-9]+}}
// REPORT: "replacement": "const bool __pk_mfma_live = !(",
// REPORT-NEXT: "rule": "PK3003",
// REPORT-NEXT: "why": "a logical warp that returns early would leave half of the wave's lanes out of the wave-wide MFMA operations: the wave keeps running while either warp has work, and the finished warp's fragment loads and stores are masked"
// REPORT: "replacement": "__pk_mfma_live ? (",
// REPORT-NEXT: "rule": "PK3003",
// REPORT-NEXT: "why": "memory traffic after the early return runs only for the lanes of a logical warp that has not returned"
// REPORT: "replacement": ", __pk_mfma_live",
// REPORT-NEXT: "rule": "PK3003",
// REPORT-NEXT: "why": "masked when this lane's logical warp has returned early"

#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

// Four warps per block, one 16x16 tile of C each, scaled per row, biased per
// column and rectified through a shared staging tile.
__global__ void gemmScaleBias(const half *A, const half *B, const float *scale,
                              const float *bias, float *C, int M, int N, int K) {
  __shared__ float tile[4][16 * 16];
  // A uniform condition: the whole block returns, nothing to change.
  if (K <= 0)
    return;
// CHECK:   if (K <= 0)
// CHECK-NEXT:     return;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int tileRow = blockIdx.y * 2 + warp / 2;
  const int tileCol = blockIdx.x * 2 + warp % 2;
  if (tileRow * 16 >= M || tileCol * 16 >= N)
    return; // the whole warp skips a tile outside C
// CHECK:   const bool __pk_mfma_live = !(tileRow * 16 >= M || tileCol * 16 >= N);
// CHECK-NEXT:   if (!__any(__pk_mfma_live))
// CHECK-NEXT:     return; // the whole warp skips a tile outside C
  const float s = scale[tileRow];
// CHECK:   const float s = __pk_mfma_live ? (scale[tileRow]) : 0;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
// CHECK:   pk_mfma::fill_fragment(acc, 0.0f);
  for (int k = 0; k < K; k += 16) {
    wmma::load_matrix_sync(a, A + (size_t)tileRow * 16 * K + k, K);
// CHECK:     pk_mfma::load_matrix_sync(a, A + (size_t)tileRow * 16 * K + k, K, __pk_mfma_live);
    wmma::load_matrix_sync(b, B + (size_t)k * N + tileCol * 16, N);
// CHECK:     pk_mfma::load_matrix_sync(b, B + (size_t)k * N + tileCol * 16, N, __pk_mfma_live);
    wmma::mma_sync(acc, a, b, acc);
// CHECK:     pk_mfma::mma_sync(acc, a, b, acc);
  }
  wmma::store_matrix_sync(tile[warp], acc, 16, wmma::mem_row_major);
// CHECK:   pk_mfma::store_matrix_sync(tile[warp], acc, 16, pk_mfma::mem_row_major, __pk_mfma_live);
  __syncwarp();
  for (int e = lane; e < 16 * 16; e += 32) {
// CHECK:   if (__pk_mfma_live) for (int e = lane; e < 16 * 16; e += 32) {
    const int r = e / 16, c = e % 16;
    const float v = s * tile[warp][e] + bias[tileCol * 16 + c];
    C[(size_t)(tileRow * 16 + r) * N + tileCol * 16 + c] = v > 0.0f ? v : 0.0f;
  }
}
// DIAG-NOT: warning
