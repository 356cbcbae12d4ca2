// wmma_lane_bias: one 16x16x16 tile C = A * B + bias, the bias added
// through the accumulator's elements as if element i of every lane were
// column i: CUDA leaves which lane holds which element unspecified, so
// what the kernel computes depends on the GPU's fragment layout.
// Idiom: x[i] indexed by position (a layout-dependent epilogue).
// EXPECT: refuse PK5005 "which lane holds which element"
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

__global__ void wmma_lane_bias(float *C, const half *A, const half *B,
                               const float *bias) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  wmma::load_matrix_sync(a, A, 16);
  wmma::load_matrix_sync(b, B, 16);
  wmma::mma_sync(acc, a, b, acc);
  for (int i = 0; i < acc.num_elements; ++i)
    acc.x[i] += bias[i]; // EXPECT-AT
  wmma::store_matrix_sync(C, acc, 16, wmma::mem_row_major);
}
