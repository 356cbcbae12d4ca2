// Control flow that can split a wave's two logical warps around fragment
// operations (PK3004), and block sizes of an odd number of warps (PK3013).
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

__global__ void __launch_bounds__(96)
divergent(const half *A, const half *B, float *C, const float *bias, int nTiles) {
  const int warp = threadIdx.x / 32;
  if (warp >= nTiles)
    return;                           // a memory read follows: masked
  const float b0 = bias[warp];
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, b0);
  for (int t = warp; t < nTiles; t += 3) {  // a warp-dependent trip count
    wmma::load_matrix_sync(a, A + t * 256, 16);
    wmma::load_matrix_sync(b, B + t * 256, 16);
    wmma::mma_sync(acc, a, b, acc);
  }
  if (warp == 0)                      // only one logical warp of the wave
    for (int i = 0; i < acc.num_elements; ++i)
      acc.x[i] *= 2.0f;
  wmma::store_matrix_sync(C + warp * 256, acc, 16, wmma::mem_row_major);
}

__device__ void tile(const half *A, float *C) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  wmma::load_matrix_sync(a, A, 16);
  wmma::load_matrix_sync(b, A, 16);
  wmma::mma_sync(acc, a, b, acc);
  wmma::store_matrix_sync(C, acc, 16, wmma::mem_row_major);
}

__global__ void through_call(const half *A, float *C, int n) {
  const int warp = threadIdx.x / 32;
  if (warp >= n)
    return;                           // the fragments are in a called function
  tile(A + warp * 256, C + warp * 256);
  if (warp % 2 == 0)                  // a call under a warp-dependent branch
    tile(A, C);
}

void launch(const half *A, const half *B, float *C, const float *bias) {
  divergent<<<4, 96>>>(A, B, C, bias, 3);
  divergent<<<dim3(4), dim3(32, 3)>>>(A, B, C, bias, 3);
  divergent<<<4, 128>>>(A, B, C, bias, 4);
}
