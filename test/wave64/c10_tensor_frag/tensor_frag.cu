// Class 10: tensor-core fragments indexed by position.  The epilogue adds a
// bias to the accumulator element by element and assumes NVIDIA's m16n16k16
// float layout (8 elements per lane, element i of lane l at a fixed row and
// column).  AMD's MFMA accumulator holds 4 elements per lane over 64 lanes.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

__global__ void gemm_bias(const half *A, const half *B, const float *bias,
                          float *C) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  wmma::load_matrix_sync(a, A, 16);
  wmma::load_matrix_sync(b, B, 16);
  wmma::mma_sync(acc, a, b, acc);
  const int lane = threadIdx.x & 31;
  // Column of element 0 in NVIDIA's layout: (lane % 4) * 2.
  acc.x[0] += bias[(lane % 4) * 2];
  acc.x[1] += bias[(lane % 4) * 2 + 1];
  wmma::store_matrix_sync(C, acc, 16, wmma::mem_row_major);
}
