// PK5005: WMMA fragments are not lifted to nc_matmul; the finding is at the
// first fragment.
// RUN: rm -rf %t && %pk port -q --to nki -o %t %s 2>&1 | FileCheck %s
#include <cuda_fp16.h>
#include <mma.h>
using namespace nvcuda;

__global__ void tile_mma(const half *A, const half *B, float *C) {
// CHECK: PK5005.cu:[[@LINE+1]]:69: warning: kernel 'tile_mma' is not lifted to NKI: tensor-core fragment 'a' {{.*}} [PK5005]
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
  wmma::fill_fragment(c, 0.0f);
  wmma::load_matrix_sync(a, A, 16);
  wmma::load_matrix_sync(b, B, 16);
  wmma::mma_sync(c, a, b, c);
  wmma::store_matrix_sync(C, c, 16, wmma::mem_row_major);
}
// CHECK-NOT: warning
