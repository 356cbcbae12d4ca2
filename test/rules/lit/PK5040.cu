// PK5040: a GEMM-shaped kernel whose structure is not one the GEMM lifter
// proves (here: WMMA fragments staged through shared memory) is reported at
// the construct that stops the proof, and not emitted.
// RUN: rm -rf %t && %pk port -q --to nki -o %t %s 2>&1 | FileCheck %s
// RUN: not grep -q "def smem_mma" %t/nki/PK5040.py
#include <cuda_fp16.h>
#include <mma.h>
using namespace nvcuda;

__global__ void smem_mma(const half *A, const half *B, float *C, int M, int N,
                         int K) {
// CHECK: PK5040.cu:[[@LINE+1]]:19: warning: kernel 'smem_mma' is not lifted to NKI: {{.*}}shared memory{{.*}} [PK5040]
  __shared__ half As[16][16];
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
  wmma::fill_fragment(c, 0.0f);
  for (int k = 0; k < K; k += 16) {
    As[threadIdx.x / 16][threadIdx.x % 16] = A[k + threadIdx.x];
    __syncthreads();
    wmma::load_matrix_sync(a, &As[0][0], 16);
    wmma::load_matrix_sync(b, B + k * N, N);
    wmma::mma_sync(c, a, b, c);
  }
  wmma::store_matrix_sync(C, c, N, wmma::mem_row_major);
}
// CHECK-NOT: warning
