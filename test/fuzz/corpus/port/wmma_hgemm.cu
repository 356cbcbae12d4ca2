// Tensor-core HGEMM with the WMMA API: half inputs, float accumulation.
// Each warp owns one 16x16 tile of C; a 128-thread block holds 4 warps in a
// 2x2 arrangement (a 32x32 block tile).  A is M x K row-major, B is K x N
// row-major, C is M x N row-major.  M, N and K are multiples of 16.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

#define WMMA_M 16
#define WMMA_N 16
#define WMMA_K 16
#define WARP_SIZE 32

__global__ void wmma_hgemm(const half *__restrict__ A,
                           const half *__restrict__ B, float *__restrict__ C,
                           int M, int N, int K) {
  const int warpId = threadIdx.x / WARP_SIZE; // 0..3
  const int tileRow = blockIdx.y * 2 + warpId / 2;
  const int tileCol = blockIdx.x * 2 + warpId % 2;
  if (tileRow * WMMA_M >= M || tileCol * WMMA_N >= N)
    return; // the whole warp skips a tile outside C

  wmma::fragment<wmma::matrix_a, WMMA_M, WMMA_N, WMMA_K, half, wmma::row_major> aFrag;
  wmma::fragment<wmma::matrix_b, WMMA_M, WMMA_N, WMMA_K, half, wmma::row_major> bFrag;
  wmma::fragment<wmma::accumulator, WMMA_M, WMMA_N, WMMA_K, float> accFrag;
  wmma::fill_fragment(accFrag, 0.0f);

  for (int k = 0; k < K; k += WMMA_K) {
    wmma::load_matrix_sync(aFrag, A + (size_t)tileRow * WMMA_M * K + k, K);
    wmma::load_matrix_sync(bFrag, B + (size_t)k * N + tileCol * WMMA_N, N);
    wmma::mma_sync(accFrag, aFrag, bFrag, accFrag);
  }

  wmma::store_matrix_sync(C + (size_t)tileRow * WMMA_M * N + tileCol * WMMA_N,
                          accFrag, N, wmma::mem_row_major);
}
