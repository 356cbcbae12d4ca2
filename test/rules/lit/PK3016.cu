// PK3016: says which fragments do not become 32x32 tiles (PK3005). With
// --mfma-shape=auto: accumulator arrays acc[R][C] used in a way the tiles do
// not support, with the reason (single fragments are not reported). With
// --mfma-shape=32x32x8: every function whose fragments run as diagonal pairs.
// RUN: rm -rf %t && %pk port -q --to hip -o %t %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DIAG
// RUN: FileCheck %s --match-full-lines --input-file=%t/hip/PK3016.hip
// RUN: %pk port -q --to hip --mfma-shape=32x32x8 -o %t/s32 %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=S32

#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

// A warp's 2x2 accumulators, scaled element by element before the store.
__global__ void scaledTiles(const half *A, const half *B, float *C, int ld,
                            float alpha) {
// S32: PK3016.cu:[[@LINE+1]]:69: note: 'a', 'b', 'acc' are not part of a logical warp's 32x32 tile (mma_sync at line [[@LINE+14]]: it is not the only statement of two counted for loops over the arrays): with --mfma-shape=32x32x8 one v_mfma_f32_32x32x8 computes the 16x16 tiles of both logical warps of a wave as its diagonal blocks and discards the other half of its products; --mfma-shape=auto uses v_mfma_f32_16x16x16 for such fragments [PK3016]
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a[2];
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> b[2];
// DIAG: PK3016.cu:[[@LINE+1]]:56: note: 'acc' is not held as 32x32 tiles (mma_sync at line [[@LINE+11]]: it is not the only statement of two counted for loops over the arrays); its fragments use v_mfma_f32_16x16x16 [PK3016]
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];
// CHECK:   // port-kernel: note: 'acc' is not held as 32x32 tiles {{.*}} [PK3016]
// CHECK-NEXT:   pk_mfma::fragment<pk_mfma::accumulator, 16, 16, 16, float> acc[2][2];
  for (int i = 0; i < 2; ++i) {
    wmma::load_matrix_sync(a[i], A + i * 16 * ld, ld);
    wmma::load_matrix_sync(b[i], B + i * 16 * ld, ld);
  }
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) {
      wmma::fill_fragment(acc[i][j], 0.0f);
      wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
// CHECK:       pk_mfma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
      for (int e = 0; e < acc[i][j].num_elements; ++e)
        acc[i][j].x[e] *= alpha;
      wmma::store_matrix_sync(C + i * 16 * ld + j * 16, acc[i][j], ld,
                              wmma::mem_row_major);
    }
}

// One fragment per warp: 16x16x16 is the right instruction, nothing to say
// with --mfma-shape=auto.
// DIAG-NOT: [PK3016]
__global__ void single(const half *A, const half *B, float *C, int ld) {
// S32: PK3016.cu:[[@LINE+1]]:69: note: 'a', 'b', 'acc' are not part of a logical warp's 32x32 tile: {{.*}} [PK3016]
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  wmma::load_matrix_sync(a, A, ld);
  wmma::load_matrix_sync(b, B, ld);
  wmma::mma_sync(acc, a, b, acc);
  wmma::store_matrix_sync(C, acc, ld, wmma::mem_row_major);
}
