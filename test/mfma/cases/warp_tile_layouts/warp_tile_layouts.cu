// Warp tiles with the other operand layouts: each warp of a 2-warp block
// owns a 64x32 tile of D = A * B + C as acc[4][2] (a 4x2 grid of 16x16
// fragments, i.e. two 32x32 tiles), with A col-major (K x M), B row-major
// (K x N), C loaded col-major and D stored col-major (both M x N with
// leading dimension M), and bf16 inputs.  The loops are not unrolled, the
// nest runs j outside i, and its body is a single statement.
#include <cuda_runtime.h>
#include <cuda_bf16.h>
#include <mma.h>

using namespace nvcuda;

__global__ void warp_tile_layouts(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                                  const float *C, float *D, int M, int N, int K) {
  const int warp = threadIdx.x / 32;
  const int row0 = warp * 64;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::col_major> a[4];
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::row_major> b[2];
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[4][2];
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 2; ++j)
      wmma::load_matrix_sync(acc[i][j], C + (size_t)(j * 16) * M + row0 + i * 16,
                             M, wmma::mem_col_major);
  for (int k = 0; k < K; k += 16) {
    for (int i = 0; i < 4; ++i)
      wmma::load_matrix_sync(a[i], A + (size_t)k * M + row0 + i * 16, M);
    for (int j = 0; j < 2; ++j)
      wmma::load_matrix_sync(b[j], B + (size_t)k * N + j * 16, N);
    for (int j = 0; j < 2; j++)
      for (int i = 0; i < 4; i++)
        wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
  }
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 2; ++j)
      wmma::store_matrix_sync(D + (size_t)(j * 16) * M + row0 + i * 16, acc[i][j],
                              M, wmma::mem_col_major);
}
