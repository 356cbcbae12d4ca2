// WMMA GEMM tiles: half and bf16 inputs, float accumulation, one 16x16 tile
// per warp, with an early return for warps past the matrix edge.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <mma.h>

using namespace nvcuda;

#define WARP_SIZE 32

__global__ void hgemm(const half *A, const half *B, float *C, int M, int N,
                      int K) {
  const int warpId = threadIdx.x / WARP_SIZE;
  const int tileRow = blockIdx.y * 2 + warpId / 2;
  const int tileCol = blockIdx.x * 2 + warpId % 2;
  if (tileRow * 16 >= M || tileCol * 16 >= N)
    return; // the whole warp skips a tile outside C

  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  for (int k = 0; k < K; k += 16) {
    wmma::load_matrix_sync(a, A + (size_t)tileRow * 16 * K + k, K);
    wmma::load_matrix_sync(b, B + (size_t)k * N + tileCol * 16, N);
    wmma::mma_sync(acc, a, b, acc);
  }
  wmma::store_matrix_sync(C + (size_t)tileRow * 16 * N + tileCol * 16, acc, N,
                          wmma::mem_row_major);
}

__global__ void bf16_gemm_scaled(const __nv_bfloat16 *A,
                                 const __nv_bfloat16 *Bt, float *C, int N,
                                 int K, float alpha) {
  const int warpId = threadIdx.x / WARP_SIZE;
  const int tileRow = blockIdx.y * 2 + warpId / 2;
  const int tileCol = blockIdx.x * 2 + warpId % 2;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::col_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  for (int k = 0; k < K; k += 16) {
    wmma::load_matrix_sync(a, A + (size_t)tileRow * 16 * K + k, K);
    wmma::load_matrix_sync(b, Bt + (size_t)tileCol * 16 * K + k, K);
    wmma::mma_sync(acc, a, b, acc);
  }
  for (int i = 0; i < acc.num_elements; ++i)
    acc.x[i] *= alpha;
  wmma::store_matrix_sync(C + (size_t)tileRow * 16 * N + tileCol * 16, acc, N,
                          wmma::mem_col_major);
}
