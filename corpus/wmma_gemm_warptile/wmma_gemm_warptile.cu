// WMMA GEMM with 32x32 warp tiles: C = A * B^T with A (M x K) and Bt (N x K)
// row-major, so B = Bt^T is K x N col-major (the "NT" layout), and arbitrary
// M, N, K.  A 128-thread block (4 warps, 2x2) computes a 64x64 tile of C;
// each warp owns a 32x32 tile held as a 2x2 grid of 16x16 accumulators and
// multiplies it with two A and two B fragments per k-step.  A and Bt slices
// are staged in padded shared tiles (zero-filled past the matrix edges); the
// result goes through a shared float tile so the final store is bounds-checked.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

#define BLOCK_M 64
#define BLOCK_N 64
#define BLOCK_K 32
#define WARP_TILE 32              // each warp: WARP_TILE x WARP_TILE of C
#define FRAGS (WARP_TILE / 16)    // 16x16 fragments per warp-tile side
#define SKEW_H 8                  // halves of padding per shared row
#define SKEW_F 4                  // floats of padding per shared row
#define THREADS 128

__global__ void __launch_bounds__(THREADS)
wmma_gemm_warptile(const __half *__restrict__ A, const __half *__restrict__ Bt,
                   float *__restrict__ C, int M, int N, int K) {
  __shared__ __align__(32) __half As[BLOCK_M][BLOCK_K + SKEW_H];
  __shared__ __align__(32) __half Bs[BLOCK_N][BLOCK_K + SKEW_H];
  __shared__ __align__(32) float Cs[BLOCK_M][BLOCK_N + SKEW_F];

  const int tid = threadIdx.x;
  const int warpId = tid / 32;
  const int warpRow = warpId / 2; // 0..1
  const int warpCol = warpId % 2; // 0..1
  const int blockRow = blockIdx.y * BLOCK_M;
  const int blockCol = blockIdx.x * BLOCK_N;

  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a[FRAGS];
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> b[FRAGS];
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[FRAGS][FRAGS];
#pragma unroll
  for (int i = 0; i < FRAGS; ++i)
#pragma unroll
    for (int j = 0; j < FRAGS; ++j)
      wmma::fill_fragment(acc[i][j], 0.0f);

  for (int k0 = 0; k0 < K; k0 += BLOCK_K) {
    // Stage a 64x32 slice of A and of Bt (rows of Bt are columns of B).
    for (int e = tid; e < BLOCK_M * BLOCK_K; e += THREADS) {
      const int r = e / BLOCK_K, c = e % BLOCK_K;
      const int ga = blockRow + r, gb = blockCol + r, gk = k0 + c;
      As[r][c] = (ga < M && gk < K) ? A[(size_t)ga * K + gk] : __float2half(0.0f);
      Bs[r][c] = (gb < N && gk < K) ? Bt[(size_t)gb * K + gk] : __float2half(0.0f);
    }
    __syncthreads();

#pragma unroll
    for (int kk = 0; kk < BLOCK_K; kk += 16) {
#pragma unroll
      for (int i = 0; i < FRAGS; ++i)
        wmma::load_matrix_sync(a[i], &As[warpRow * WARP_TILE + i * 16][kk],
                               BLOCK_K + SKEW_H);
#pragma unroll
      for (int j = 0; j < FRAGS; ++j)
        wmma::load_matrix_sync(b[j], &Bs[warpCol * WARP_TILE + j * 16][kk],
                               BLOCK_K + SKEW_H);
#pragma unroll
      for (int i = 0; i < FRAGS; ++i)
#pragma unroll
        for (int j = 0; j < FRAGS; ++j)
          wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
    }
    __syncthreads();
  }

#pragma unroll
  for (int i = 0; i < FRAGS; ++i)
#pragma unroll
    for (int j = 0; j < FRAGS; ++j)
      wmma::store_matrix_sync(&Cs[warpRow * WARP_TILE + i * 16]
                                 [warpCol * WARP_TILE + j * 16],
                              acc[i][j], BLOCK_N + SKEW_F, wmma::mem_row_major);
  __syncthreads();

  for (int e = tid; e < BLOCK_M * BLOCK_N; e += THREADS) {
    const int r = e / BLOCK_N, c = e % BLOCK_N;
    const int gr = blockRow + r, gc = blockCol + c;
    if (gr < M && gc < N)
      C[(size_t)gr * N + gc] = Cs[r][c];
  }
}
