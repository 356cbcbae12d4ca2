// PK5041: the GEMM lifter recovers A, B and C's shapes from the fragment
// offsets and leading dimensions; a constant leading dimension says nothing
// about the matrix's shape, so the kernel is reported and not emitted.
// RUN: rm -rf %t && %pk port -q --to nki -o %t %s 2>&1 | FileCheck %s
// RUN: not grep -q "def fixed_ld" %t/nki/PK5041.py
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
// CHECK-NOT: warning
