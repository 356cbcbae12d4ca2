// PK5040: a GEMM-shaped kernel whose structure is not one the GEMM lifter
// proves (here: WMMA fragments loaded from shared tiles, but no barrier
// between the compute phase and the next iteration's staging, so a fast warp
// overwrites tiles another warp still reads) is reported at the construct
// that stops the proof, and not emitted.
// RUN: rm -rf %t && %pk port -q --to nki -o %t %s 2>&1 | FileCheck %s
// RUN: not grep -q "def smem_mma" %t/nki/PK5040.py
// (also: an early return before the staging, arrays of fragments)
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

// Warp tiles held in arrays of fragments (wmma_gemm_warptile of the corpus).
__global__ void smem_mma_frag_array(const half *A, const half *B, float *C,
                                    int M, int N, int K) {
  __shared__ half As[16][16];
  __shared__ half Bs[16][16];
  __shared__ float Cs[16][16];
// CHECK: PK5040.cu:[[@LINE+1]]:69: warning: kernel 'smem_mma_frag_array' is not lifted to NKI: array of WMMA fragments 'af': warp tiles of several fragments are not lifted{{.*}} [PK5040]
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
// CHECK-NOT: warning
