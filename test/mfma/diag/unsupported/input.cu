// WMMA configurations the MFMA port does not handle (PK3015): the file's
// WMMA code is left unchanged.
#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

__global__ void half_acc(const half *A, const half *B, half *C) {
  wmma::fragment<wmma::matrix_a, 32, 8, 16, half, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 32, 8, 16, half, wmma::col_major> b;
  wmma::fragment<wmma::accumulator, 32, 8, 16, half> acc;
  wmma::fill_fragment(acc, __float2half(0.0f));
  wmma::load_matrix_sync(a, A, 16);
  wmma::load_matrix_sync(b, B, 16);
  wmma::mma_sync(acc, a, b, acc);
  wmma::store_matrix_sync(C, acc, 8, wmma::mem_row_major);
}
