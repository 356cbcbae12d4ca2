// WMMA fragments over shared tiles (test/nki/gemm/check_gemm.py): one_warp and
// warp_tile_rowb (arrays of fragments) are lifted and run against NumPy;
// half_warps names a different tile in each half of its warp (undefined for
// warp-collective WMMA calls), which the lifted kernel refuses at trace time.
#include <cuda_fp16.h>
#include <mma.h>
using namespace nvcuda;

__global__ void one_warp(const half *A, const half *B, float *C, int M, int N,
                         int K) {
  __shared__ half As[16][16];
  __shared__ half Bs[16][16];
  __shared__ float Cs[16][16];
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
  wmma::fill_fragment(c, 0.0f);
  for (int k0 = 0; k0 < K; k0 += 16) {
    for (int i = threadIdx.x; i < 256; i += 32) {
      const int r = i / 16, cc = i % 16;
      const int gr = blockIdx.y * 16 + r, gc = blockIdx.x * 16 + cc;
      As[r][cc] = (gr < M && k0 + cc < K) ? A[gr * K + k0 + cc]
                                          : __float2half(0.0f);
      Bs[r][cc] = (k0 + r < K && gc < N) ? B[(k0 + r) * N + gc]
                                         : __float2half(0.0f);
    }
    __syncthreads();
    wmma::load_matrix_sync(a, &As[0][0], 16);
    wmma::load_matrix_sync(b, &Bs[0][0], 16);
    wmma::mma_sync(c, a, b, c);
    __syncthreads();
  }
  wmma::store_matrix_sync(&Cs[0][0], c, 16, wmma::mem_row_major);
  __syncthreads();
  for (int i = threadIdx.x; i < 256; i += 32) {
    const int r = i / 16, cc = i % 16;
    const int gr = blockIdx.y * 16 + r, gc = blockIdx.x * 16 + cc;
    if (gr < M && gc < N)
      C[gr * N + gc] = Cs[r][cc];
  }
}
__global__ void half_warps(const half *A, const half *B, float *C, int M, int N,
                         int K) {
  __shared__ half As[32][16];
  __shared__ half Bs[16][16];
  __shared__ float Cs[32][16];
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
  wmma::fill_fragment(c, 0.0f);
  for (int k0 = 0; k0 < K; k0 += 16) {
    for (int i = threadIdx.x; i < 512; i += 32) {
      const int r = i / 16, cc = i % 16;
      const int gr = blockIdx.y * 32 + r;
      As[r][cc] = (gr < M && k0 + cc < K) ? A[gr * K + k0 + cc]
                                          : __float2half(0.0f);
    }
    for (int i = threadIdx.x; i < 256; i += 32) {
      const int r = i / 16, cc = i % 16;
      const int gc = blockIdx.x * 16 + cc;
      Bs[r][cc] = (k0 + r < K && gc < N) ? B[(k0 + r) * N + gc]
                                         : __float2half(0.0f);
    }
    __syncthreads();
    // Lanes 0-15 and 16-31 of the one warp name different tiles.
    wmma::load_matrix_sync(a, &As[threadIdx.x / 16 * 16][0], 16);
    wmma::load_matrix_sync(b, &Bs[0][0], 16);
    wmma::mma_sync(c, a, b, c);
    __syncthreads();
  }
  wmma::store_matrix_sync(&Cs[threadIdx.x / 16 * 16][0], c, 16,
                          wmma::mem_row_major);
  __syncthreads();
  for (int i = threadIdx.x; i < 512; i += 32) {
    const int r = i / 16, cc = i % 16;
    const int gr = blockIdx.y * 32 + r, gc = blockIdx.x * 16 + cc;
    if (gr < M && gc < N)
      C[gr * N + gc] = Cs[r][cc];
  }
}

// A one-warp 32x32 warp tile held in arrays of fragments (2 A, 2 B, 2x2
// accumulators), B row-major (K x N) staged in a padded shared tile, two
// fragment k-steps per staged K tile of 32: lifted and run against NumPy.
__global__ void warp_tile_rowb(const half *A, const half *B, float *C, int M,
                               int N, int K) {
  __shared__ half As[32][40];
  __shared__ half Bs[32][40];
  __shared__ float Cs[32][36];
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a[2];
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b[2];
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];
  for (int j = 0; j < 2; ++j)
    for (int i = 0; i < 2; ++i)
      wmma::fill_fragment(acc[i][j], 0.0f);
  for (int k0 = 0; k0 < K; k0 += 32) {
    for (int e = threadIdx.x; e < 1024; e += 32) {
      const int r = e / 32, c = e % 32;
      const int gr = blockIdx.y * 32 + r, gc = blockIdx.x * 32 + c;
      As[r][c] = (gr < M && k0 + c < K) ? A[gr * K + k0 + c]
                                        : __float2half(0.0f);
      Bs[r][c] = (k0 + r < K && gc < N) ? B[(k0 + r) * N + gc]
                                        : __float2half(0.0f);
    }
    __syncthreads();
    for (int kk = 0; kk < 32; kk += 16) {
      for (int j = 0; j < 2; ++j)
        wmma::load_matrix_sync(b[j], &Bs[kk][j * 16], 40);
      for (int i = 0; i < 2; ++i)
        wmma::load_matrix_sync(a[i], &As[i * 16][kk], 40);
      for (int j = 0; j < 2; ++j)
        for (int i = 0; i < 2; ++i)
          wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
    }
    __syncthreads();
  }
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      wmma::store_matrix_sync(&Cs[i * 16][j * 16], acc[i][j], 36,
                              wmma::mem_row_major);
  __syncthreads();
  for (int e = threadIdx.x; e < 1024; e += 32) {
    const int r = e / 32, c = e % 32;
    const int gr = blockIdx.y * 32 + r, gc = blockIdx.x * 32 + c;
    if (gr < M && gc < N)
      C[gr * N + gc] = Cs[r][c];
  }
}
