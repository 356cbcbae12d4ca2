// PK5040: a GEMM-shaped kernel whose structure is not one the GEMM lifter
// proves (here: WMMA fragments loaded from shared tiles, but no barrier
// between the compute phase and the next iteration's staging, so a fast warp
// overwrites tiles another warp still reads) is reported at the construct
// that stops the proof, and not emitted.
// RUN: rm -rf %t && %pk port -q --to nki -o %t %s 2>&1 | FileCheck %s
// RUN: not grep -q "def smem_mma" %t/nki/PK5040.py
// RUN: not grep -q "def frag_used_while_loading" %t/nki/PK5040.py
// RUN: not grep -q "def frag_array_template" %t/nki/PK5040.py
// (also: an early return before the staging, an element of an array of
// fragments named by a constant, one used inside the loop that loads it, one
// sized by a template parameter)
#include <cuda_fp16.h>
#include <mma.h>
using namespace nvcuda;

__global__ void smem_mma(const half *A, const half *B, float *C, int M, int N,
                         int K) {
  __shared__ half As[16][16];
  __shared__ half Bs[16][16];
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
  __shared__ float Cs[16][16];
  wmma::fill_fragment(c, 0.0f);
// CHECK: PK5040.cu:[[@LINE+1]]:3: warning: kernel 'smem_mma' is not lifted to NKI: {{.*}}K-tile loop is not 'stage; __syncthreads(); compute; __syncthreads();'{{.*}} [PK5040]
  for (int k0 = 0; k0 < K; k0 += 16) {
    for (int i = threadIdx.x; i < 256; i += 32) {
      As[i / 16][i % 16] = A[blockIdx.y * 16 * K + (i / 16) * K + k0 + i % 16];
      Bs[i / 16][i % 16] = B[(k0 + i / 16) * N + blockIdx.x * 16 + i % 16];
    }
    __syncthreads();
    wmma::load_matrix_sync(a, &As[0][0], 16);
    wmma::load_matrix_sync(b, &Bs[0][0], 16);
    wmma::mma_sync(c, a, b, c);
  }
  wmma::store_matrix_sync(&Cs[0][0], c, 16, wmma::mem_row_major);
  __syncthreads();
  for (int i = threadIdx.x; i < 256; i += 32)
    C[(blockIdx.y * 16 + i / 16) * N + blockIdx.x * 16 + i % 16] =
        Cs[i / 16][i % 16];
}

// The early return of a whole block (rows past M) before the staging: the
// tiles are proven only when every thread stages and reaches the barriers.
__global__ void smem_mma_return(const half *A, const half *B, float *C, int M,
                                int N, int K) {
  __shared__ half As[16][16];
  __shared__ half Bs[16][16];
  __shared__ float Cs[16][16];
  if (blockIdx.y * 16 >= M)
// CHECK: PK5040.cu:[[@LINE+1]]:5: warning: kernel 'smem_mma_return' is not lifted to NKI: early return in a GEMM over shared tiles{{.*}} [PK5040]
    return;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
  wmma::fill_fragment(c, 0.0f);
  for (int k0 = 0; k0 < K; k0 += 16) {
    for (int i = threadIdx.x; i < 256; i += 32) {
      As[i / 16][i % 16] = A[blockIdx.y * 16 * K + (i / 16) * K + k0 + i % 16];
      Bs[i / 16][i % 16] = B[(k0 + i / 16) * N + blockIdx.x * 16 + i % 16];
    }
    __syncthreads();
    wmma::load_matrix_sync(a, &As[0][0], 16);
    wmma::load_matrix_sync(b, &Bs[0][0], 16);
    wmma::mma_sync(c, a, b, c);
    __syncthreads();
  }
  wmma::store_matrix_sync(&Cs[0][0], c, 16, wmma::mem_row_major);
  __syncthreads();
  for (int i = threadIdx.x; i < 256; i += 32)
    C[(blockIdx.y * 16 + i / 16) * N + blockIdx.x * 16 + i % 16] =
        Cs[i / 16][i % 16];
}

// Arrays of fragments (warp tiles, as in wmma_gemm_warptile of the corpus)
// are lifted when each load, fill and store runs over the whole array in
// loops; an element named by a constant is not.
__global__ void smem_mma_frag_array(const half *A, const half *B, float *C,
                                    int M, int N, int K) {
  __shared__ half As[16][16];
  __shared__ half Bs[16][16];
  __shared__ float Cs[16][16];
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> af[1];
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
  wmma::fill_fragment(c, 0.0f);
  for (int k0 = 0; k0 < K; k0 += 16) {
    for (int i = threadIdx.x; i < 256; i += 32) {
      As[i / 16][i % 16] = A[blockIdx.y * 16 * K + (i / 16) * K + k0 + i % 16];
      Bs[i / 16][i % 16] = B[(k0 + i / 16) * N + blockIdx.x * 16 + i % 16];
    }
    __syncthreads();
// CHECK: PK5040.cu:[[@LINE+1]]:5: warning: kernel 'smem_mma_frag_array' is not lifted to NKI: index '0' of the fragment array 'af' in 'load_matrix_sync' is not the variable of a loop 'for (v = 0; v < 1; ++v)' over its whole dimension{{.*}} [PK5040]
    wmma::load_matrix_sync(af[0], &As[0][0], 16);
    wmma::load_matrix_sync(b, &Bs[0][0], 16);
    wmma::mma_sync(c, af[0], b, c);
    __syncthreads();
  }
  wmma::store_matrix_sync(&Cs[0][0], c, 16, wmma::mem_row_major);
  __syncthreads();
  for (int i = threadIdx.x; i < 256; i += 32)
    C[(blockIdx.y * 16 + i / 16) * N + blockIdx.x * 16 + i % 16] =
        Cs[i / 16][i % 16];
}

// An element of a fragment array used by mma_sync inside the loop that loads
// the array: the elements of later iterations are not loaded yet.
__global__ void frag_used_while_loading(const half *A, const half *B, float *C,
                                        int M, int N, int K) {
  __shared__ half As[32][16];
  __shared__ half Bs[16][16];
  __shared__ float Cs[32][16];
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a[2];
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> c[2];
  for (int i = 0; i < 2; ++i)
    wmma::fill_fragment(c[i], 0.0f);
  for (int k0 = 0; k0 < K; k0 += 16) {
    for (int e = threadIdx.x; e < 512; e += 32)
      As[e / 16][e % 16] = A[(blockIdx.y * 32 + e / 16) * K + k0 + e % 16];
    for (int e = threadIdx.x; e < 256; e += 32)
      Bs[e / 16][e % 16] = B[(k0 + e / 16) * N + blockIdx.x * 16 + e % 16];
    __syncthreads();
    wmma::load_matrix_sync(b, &Bs[0][0], 16);
    for (int i = 0; i < 2; ++i) {
      wmma::load_matrix_sync(a[i], &As[i * 16][0], 16);
// CHECK: PK5040.cu:[[@LINE+1]]:7: warning: kernel 'frag_used_while_loading' is not lifted to NKI: fragment 'a' is used inside the loop that loads its elements{{.*}} [PK5040]
      wmma::mma_sync(c[i], a[1 - i], b, c[i]);
    }
    __syncthreads();
  }
  for (int i = 0; i < 2; ++i)
    wmma::store_matrix_sync(&Cs[i * 16][0], c[i], 16, wmma::mem_row_major);
  __syncthreads();
  for (int e = threadIdx.x; e < 512; e += 32)
    C[(blockIdx.y * 32 + e / 16) * N + blockIdx.x * 16 + e % 16] =
        Cs[e / 16][e % 16];
}

// An array of fragments whose size is a template parameter.
template <int F>
__global__ void frag_array_template(const half *A, const half *B, float *C,
                                    int M, int N, int K) {
  __shared__ half As[16][16];
  __shared__ half Bs[16][16];
// CHECK: PK5040.cu:[[@LINE+1]]:{{[0-9]+}}: warning: kernel 'frag_array_template' is not lifted to NKI: array of WMMA fragments 'a' without constant dimensions [PK5040]
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a[F];
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
  wmma::fill_fragment(c, 0.0f);
  for (int k0 = 0; k0 < K; k0 += 16) {
    for (int i = threadIdx.x; i < 256; i += 32) {
      As[i / 16][i % 16] = A[blockIdx.y * 16 * K + (i / 16) * K + k0 + i % 16];
      Bs[i / 16][i % 16] = B[(k0 + i / 16) * N + blockIdx.x * 16 + i % 16];
    }
    __syncthreads();
    for (int f = 0; f < F; ++f) {
      wmma::load_matrix_sync(a[f], &As[0][0], 16);
      wmma::load_matrix_sync(b, &Bs[0][0], 16);
      wmma::mma_sync(c, a[f], b, c);
    }
    __syncthreads();
  }
  wmma::store_matrix_sync(C + blockIdx.y * 16 * N + blockIdx.x * 16, c, N,
                          wmma::mem_row_major);
}
// CHECK-NOT: warning
