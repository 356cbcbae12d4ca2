// bf16 WMMA GEMM (sm_80+) whose shared tiles are padded for NVIDIA's banks:
// double-buffered A slices (a 3-D array), B staged transposed (col-major
// fragments, pitch chosen by a conditional), and the accumulators stored
// col-major to an unpadded float tile.  C = A * B with A (M x K) row-major and B given as
// Bt (N x K); a 128-thread block (2x2 warps) computes a 32x32 tile of C.
#include <cuda_runtime.h>
#include <cuda_bf16.h>
#include <mma.h>

using namespace nvcuda;

#define BM 32
#define BN 32
#define BK 32
#define SKEW 8        // elements: 16-byte rows for NVIDIA's shared memory
#define WIDE_SKEW 1
#define THREADS 128

__global__ void __launch_bounds__(THREADS)
lds_padding(const __nv_bfloat16 *__restrict__ A, const __nv_bfloat16 *__restrict__ Bt,
            float *__restrict__ C, int M, int N, int K) {
  __shared__ __align__(32) __nv_bfloat16 As[2][BM][BK + SKEW];
  __shared__ __align__(32) __nv_bfloat16 Bs[BN][WIDE_SKEW ? BK + SKEW : BK];
  __shared__ __align__(32) float Cs[BN][BM]; // column-major C tile

  const int tid = threadIdx.x;
  const int warp = tid / 32;
  const int wr = warp / 2, wc = warp % 2;
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;

  wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::col_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);

  int buf = 0;
  for (int k0 = 0; k0 < K; k0 += BK, buf ^= 1) {
    for (int i = tid; i < BM * BK; i += THREADS) {
      const int r = i / BK, c = i % BK;
      const bool in = row0 + r < M && k0 + c < K;
      As[buf][r][c] = in ? A[(size_t)(row0 + r) * K + k0 + c] : __nv_bfloat16();
      const bool inB = col0 + r < N && k0 + c < K;
      Bs[r][c] = inB ? Bt[(size_t)(col0 + r) * K + k0 + c] : __nv_bfloat16();
    }
    __syncthreads();
    for (int kk = 0; kk < BK; kk += 16) {
      wmma::load_matrix_sync(a, &As[buf][wr * 16][kk], BK + SKEW);
      wmma::load_matrix_sync(b, &Bs[wc * 16][kk], WIDE_SKEW ? BK + SKEW : BK);
      wmma::mma_sync(acc, a, b, acc);
    }
    __syncthreads();
  }

  wmma::store_matrix_sync(&Cs[wc * 16][wr * 16], acc, BM, wmma::mem_col_major);
  __syncthreads();
  for (int i = tid; i < BM * BN; i += THREADS) {
    const int r = i / BN, c = i % BN;
    if (row0 + r < M && col0 + c < N)
      C[(size_t)(row0 + r) * N + col0 + c] = Cs[c][r];
  }
}
