// WMMA GEMM with shared-memory staging and arbitrary M, N, K.
// A 128-thread block (4 warps, 2x2) computes a 32x32 tile of C = A * B.
// Each k-step the block stages a 32x16 slice of A and a 16x32 slice of B in
// padded shared tiles (zero-filled past the matrix edges); each warp then
// loads its fragments from shared memory.  The accumulators go through a
// shared float tile so the final store can be bounds-checked.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

#define BLOCK_M 32
#define BLOCK_N 32
#define BLOCK_K 16
#define SKEW_H 8   // halves of padding per shared row
#define SKEW_F 4   // floats of padding per shared row
#define THREADS 128

__global__ void __launch_bounds__(THREADS)
wmma_gemm_smem(const __half *__restrict__ A, const __half *__restrict__ B,
               float *__restrict__ C, int M, int N, int K) {
  __shared__ __align__(32) __half As[BLOCK_M][BLOCK_K + SKEW_H];
  __shared__ __align__(32) __half Bs[BLOCK_K][BLOCK_N + SKEW_H];
  __shared__ __align__(32) float Cs[BLOCK_M][BLOCK_N + SKEW_F];

  const int tid = threadIdx.x;
  const int warpId = tid >> 5;
  const int warpRow = warpId >> 1; // 0..1
  const int warpCol = warpId & 1;  // 0..1
  const int blockRow = blockIdx.y * BLOCK_M;
  const int blockCol = blockIdx.x * BLOCK_N;

  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> aFrag;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> bFrag;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);

  for (int k0 = 0; k0 < K; k0 += BLOCK_K) {
    for (int i = tid; i < BLOCK_M * BLOCK_K; i += THREADS) {
      const int r = i / BLOCK_K, c = i % BLOCK_K;
      const int gr = blockRow + r, gc = k0 + c;
      As[r][c] = (gr < M && gc < K) ? A[(size_t)gr * K + gc] : __float2half(0.0f);
    }
    for (int i = tid; i < BLOCK_K * BLOCK_N; i += THREADS) {
      const int r = i / BLOCK_N, c = i % BLOCK_N;
      const int gr = k0 + r, gc = blockCol + c;
      Bs[r][c] = (gr < K && gc < N) ? B[(size_t)gr * N + gc] : __float2half(0.0f);
    }
    __syncthreads();

    wmma::load_matrix_sync(aFrag, &As[warpRow * 16][0], BLOCK_K + SKEW_H);
    wmma::load_matrix_sync(bFrag, &Bs[0][warpCol * 16], BLOCK_N + SKEW_H);
    wmma::mma_sync(acc, aFrag, bFrag, acc);
    __syncthreads();
  }

  wmma::store_matrix_sync(&Cs[warpRow * 16][warpCol * 16], acc,
                          BLOCK_N + SKEW_F, wmma::mem_row_major);
  __syncthreads();

  for (int i = tid; i < BLOCK_M * BLOCK_N; i += THREADS) {
    const int r = i / BLOCK_N, c = i % BLOCK_N;
    const int gr = blockRow + r, gc = blockCol + c;
    if (gr < M && gc < N)
      C[(size_t)gr * N + gc] = Cs[r][c];
  }
}
