// WMMA configurations the MFMA port does not handle (PK3015): the file's
// WMMA code is left unchanged.
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
// port-kernel: warning: header <mma.h> has no HIP counterpart: tensor-core fragments have no HIP 5.2.3 header; the WMMA rule family handles nvcuda::wmma [PK1010]
#include <mma.h>

using namespace nvcuda;

__global__ void half_acc(const half *A, const half *B, half *C) {
  // port-kernel: warning: fragment<matrix_a, 32, 8, 16, half> is not ported (supported: m16n16k16 with half or __nv_bfloat16 inputs and float accumulators); the WMMA code of this file is left unchanged [PK3015]
  wmma::fragment<wmma::matrix_a, 32, 8, 16, half, wmma::row_major> a;
  // port-kernel: warning: fragment<matrix_b, 32, 8, 16, half> is not ported (supported: m16n16k16 with half or __nv_bfloat16 inputs and float accumulators); the WMMA code of this file is left unchanged [PK3015]
  wmma::fragment<wmma::matrix_b, 32, 8, 16, half, wmma::col_major> b;
  // port-kernel: warning: fragment<accumulator, 32, 8, 16, half> is not ported (supported: m16n16k16 with half or __nv_bfloat16 inputs and float accumulators); the WMMA code of this file is left unchanged [PK3015]
  wmma::fragment<wmma::accumulator, 32, 8, 16, half> acc;
  wmma::fill_fragment(acc, __float2half(0.0f));
  wmma::load_matrix_sync(a, A, 16);
  wmma::load_matrix_sync(b, B, 16);
  wmma::mma_sync(acc, a, b, acc);
  wmma::store_matrix_sync(C, acc, 8, wmma::mem_row_major);
}
