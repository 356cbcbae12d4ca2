// PK3005: arrays of fragments that one loop nest multiplies become 32x32
// tiles; PK3016: what happens to the fragments that do not.
#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

// Fused: a[2], b[2], acc[2][2], braced nest with pragmas.
__global__ void tiles(const half *A, const half *B, float *C, int lda, int ldb,
                      int ldc) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a[2];
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b[2];
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      wmma::fill_fragment(acc[i][j], 0.0f);
  for (int i = 0; i < 2; ++i)
    wmma::load_matrix_sync(a[i], A + i * 16 * lda, lda);
  for (int j = 0; j < 2; ++j)
    wmma::load_matrix_sync(b[j], B + j * 16, ldb);
#pragma unroll
  for (int i = 0; i < 2; ++i) {
#pragma unroll
    for (int j = 0; j < 2; ++j) {
      wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
    }
  }
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      wmma::store_matrix_sync(C + i * 16 * ldc + j * 16, acc[i][j], ldc,
                              wmma::mem_row_major);
}

// Not fused: the accumulators are scaled element by element.
__global__ void scaled(const half *A, const half *B, float *C, int ld) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a[2];
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> b[2];
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];
  for (int i = 0; i < 2; ++i) {
    wmma::load_matrix_sync(a[i], A + i * 16 * ld, ld);
    wmma::load_matrix_sync(b[i], B + i * 16 * ld, ld);
  }
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) {
      wmma::fill_fragment(acc[i][j], 0.0f);
      wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
    }
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) {
      for (int e = 0; e < acc[i][j].num_elements; ++e)
        acc[i][j].x[e] *= 0.5f;
      wmma::store_matrix_sync(C + i * 16 * ld + j * 16, acc[i][j], ld,
                              wmma::mem_row_major);
    }
}

// Not fused: one fragment per warp.
__global__ void single(const half *A, const half *B, float *C, int ld) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  wmma::load_matrix_sync(a, A, ld);
  wmma::load_matrix_sync(b, B, ld);
  wmma::mma_sync(acc, a, b, acc);
  wmma::store_matrix_sync(C, acc, ld, wmma::mem_row_major);
}
