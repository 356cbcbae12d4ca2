// Register-blocked SGEMM: a 256-thread block computes a 64x64 tile of C,
// each thread a 4x4 sub-tile held in registers.  The A tile is stored
// transposed in shared memory so the inner loop reads both operands along
// contiguous rows.  C = A * B, row-major, M x K times K x N.
#include <cuda_runtime.h>

#define BM 64
#define BN 64
#define BK 8
#define TM 4
#define TN 4
#define NUM_THREADS ((BM / TM) * (BN / TN))

__global__ void __launch_bounds__(NUM_THREADS)
sgemm_regblock(const float *__restrict__ A, const float *__restrict__ B,
               float *__restrict__ C, int M, int N, int K) {
  __shared__ float As[BK][BM]; // transposed: As[k][m]
  __shared__ float Bs[BK][BN];

  const int tid = threadIdx.x;
  const int tRow = tid / (BN / TN);
  const int tCol = tid % (BN / TN);
  const int blockRow = blockIdx.y * BM;
  const int blockCol = blockIdx.x * BN;

  float acc[TM][TN] = {};
  float regA[TM];
  float regB[TN];

  for (int k0 = 0; k0 < K; k0 += BK) {
    for (int i = tid; i < BM * BK; i += NUM_THREADS) {
      const int r = i / BK, c = i % BK;
      const int gr = blockRow + r, gc = k0 + c;
      As[c][r] = (gr < M && gc < K) ? A[gr * K + gc] : 0.0f;
    }
    for (int i = tid; i < BK * BN; i += NUM_THREADS) {
      const int r = i / BN, c = i % BN;
      const int gr = k0 + r, gc = blockCol + c;
      Bs[r][c] = (gr < K && gc < N) ? B[gr * N + gc] : 0.0f;
    }
    __syncthreads();

#pragma unroll
    for (int k = 0; k < BK; ++k) {
#pragma unroll
      for (int m = 0; m < TM; ++m)
        regA[m] = As[k][tRow * TM + m];
#pragma unroll
      for (int n = 0; n < TN; ++n)
        regB[n] = Bs[k][tCol * TN + n];
#pragma unroll
      for (int m = 0; m < TM; ++m)
#pragma unroll
        for (int n = 0; n < TN; ++n)
          acc[m][n] += regA[m] * regB[n];
    }
    __syncthreads();
  }

#pragma unroll
  for (int m = 0; m < TM; ++m) {
    const int row = blockRow + tRow * TM + m;
#pragma unroll
    for (int n = 0; n < TN; ++n) {
      const int col = blockCol + tCol * TN + n;
      if (row < M && col < N)
        C[row * N + col] = acc[m][n];
    }
  }
}
