// PK5041: the GEMM lifter recovers A, B and C's shapes from the fragment
// offsets and leading dimensions; a constant leading dimension says nothing
// about the matrix's shape, so the kernel is reported and not emitted.
// Second case: WMMA fragments over shared tiles whose accumulator is stored
// to a shared tile at an offset that does not follow what the warp computed
// (two warps, two different products, one tile: threads would race).
// Third case: a float operand staged into a half tile (rounded on the GPU).
// Fourth case: the tile offset of an element of a fragment array is the loop
// variable times a thread index (not a warp offset plus loop terms).
// RUN: rm -rf %t && %pk port -q --to nki -o %t %s 2>&1 | FileCheck %s
// RUN: not grep -q "def fixed_ld" %t/nki/PK5041.py
// RUN: not grep -q "def two_warps_one_tile" %t/nki/PK5041.py
// RUN: not grep -q "def float_into_half" %t/nki/PK5041.py
// RUN: not grep -q "def loop_times_warp" %t/nki/PK5041.py
#include <cuda_fp16.h>
#include <mma.h>
using namespace nvcuda;

__global__ void fixed_ld(const half *A, const half *B, float *C, int M, int N,
                         int K) {
  const int tileRow = blockIdx.y, tileCol = blockIdx.x;
  if (tileRow * 16 >= M || tileCol * 16 >= N)
    return;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
  wmma::fill_fragment(c, 0.0f);
  for (int k = 0; k < K; k += 16) {
// CHECK: PK5041.cu:[[@LINE+1]]:57: warning: kernel 'fixed_ld' is not lifted to NKI: the leading dimension of a WMMA load or store is not a size parameter{{.*}} [PK5041]
    wmma::load_matrix_sync(a, A + tileRow * 16 * K + k, 64);
    wmma::load_matrix_sync(b, B + k * N + tileCol * 16, N);
    wmma::mma_sync(c, a, b, c);
  }
  wmma::store_matrix_sync(C + tileRow * 16 * N + tileCol * 16, c, N,
                          wmma::mem_row_major);
}

__global__ void two_warps_one_tile(const half *A, const half *B, float *C,
                                   int M, int N, int K) {
  __shared__ half As[32][16];
  __shared__ half Bs[16][16];
  __shared__ float Cs[16][16];
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
  wmma::fill_fragment(c, 0.0f);
  for (int k0 = 0; k0 < K; k0 += 16) {
    for (int i = threadIdx.x; i < 512; i += 64) {
      const int r = i / 16, cc = i % 16;
      As[r][cc] = (blockIdx.y * 32 + r < M && k0 + cc < K)
                      ? A[(blockIdx.y * 32 + r) * K + k0 + cc]
                      : __float2half(0.0f);
    }
    for (int i = threadIdx.x; i < 256; i += 64) {
      const int r = i / 16, cc = i % 16;
      Bs[r][cc] = (k0 + r < K && blockIdx.x * 16 + cc < N)
                      ? B[(k0 + r) * N + blockIdx.x * 16 + cc]
                      : __float2half(0.0f);
    }
    __syncthreads();
    // Each warp multiplies its own 16 rows of A ...
    wmma::load_matrix_sync(a, &As[threadIdx.x / 32 * 16][0], 16);
    wmma::load_matrix_sync(b, &Bs[0][0], 16);
    wmma::mma_sync(c, a, b, c);
    __syncthreads();
  }
  // ... but both warps store their accumulator to the same tile: a race.
// CHECK: PK5041.cu:[[@LINE+1]]:3: warning: kernel 'two_warps_one_tile' is not lifted to NKI: the accumulator depends on the thread through (tid_x // 32), not only through the offset of the tile it is stored at [PK5041]
  wmma::store_matrix_sync(&Cs[0][0], c, 16, wmma::mem_row_major);
  __syncthreads();
  for (int i = threadIdx.x; i < 256; i += 64) {
    const int r = i / 16, cc = i % 16;
    if (blockIdx.y * 32 + r < M && blockIdx.x * 16 + cc < N)
      C[(blockIdx.y * 32 + r) * N + blockIdx.x * 16 + cc] = Cs[r][cc];
  }
}

__global__ void float_into_half(const float *A, const half *B, float *C, int M, int N,
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
// CHECK: PK5041.cu:[[@LINE+1]]:{{[0-9]+}}: warning: kernel 'float_into_half' is not lifted to NKI: the 16-bit array 'As' is not filled with loads of its own element type (a conversion would round) [PK5041]
      As[r][cc] = A[gr * K + k0 + cc];
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

__global__ void loop_times_warp(const half *A, const half *B, float *C, int M,
                                int N, int K) {
  __shared__ half As[64][16];
  __shared__ half Bs[16][16];
  __shared__ float Cs[64][16];
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a[2];
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> c[2];
  for (int i = 0; i < 2; ++i)
    wmma::fill_fragment(c[i], 0.0f);
  for (int k0 = 0; k0 < K; k0 += 16) {
    for (int e = threadIdx.x; e < 1024; e += 64)
      As[e / 16][e % 16] = A[(blockIdx.y * 64 + e / 16) * K + k0 + e % 16];
    for (int e = threadIdx.x; e < 256; e += 64)
      Bs[e / 16][e % 16] = B[(k0 + e / 16) * N + blockIdx.x * 16 + e % 16];
    __syncthreads();
    wmma::load_matrix_sync(b, &Bs[0][0], 16);
    for (int i = 0; i < 2; ++i)
// CHECK: PK5041.cu:[[@LINE+1]]:7: warning: kernel 'loop_times_warp' is not lifted to NKI: the fragment's tile offset {{.*}} multiplies a loop variable by a thread index{{.*}} [PK5041]
      wmma::load_matrix_sync(a[i], &As[(threadIdx.x / 32 + 1) * i * 16][0], 16);
    for (int i = 0; i < 2; ++i)
      wmma::mma_sync(c[i], a[i], b, c[i]);
    __syncthreads();
  }
  for (int i = 0; i < 2; ++i)
    wmma::store_matrix_sync(&Cs[(threadIdx.x / 32) * 32 + i * 16][0], c[i], 16,
                            wmma::mem_row_major);
  __syncthreads();
  for (int e = threadIdx.x; e < 1024; e += 64)
    C[(blockIdx.y * 64 + e / 16) * N + blockIdx.x * 16 + e % 16] =
        Cs[e / 16][e % 16];
}
// CHECK-NOT: warning
