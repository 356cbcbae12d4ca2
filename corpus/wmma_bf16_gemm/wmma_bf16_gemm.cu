// bf16 tensor-core GEMM with WMMA (sm_80+): C = A * B^T-stored, i.e. A is
// M x K row-major and B is given as an N x K row-major array (B col-major).
// One 16x16 tile of C per warp, 4 warps per block in a 2x2 arrangement.
// M, N, K are multiples of 16.
#include <cuda_runtime.h>
#include <cuda_bf16.h>
#include <mma.h>

using namespace nvcuda;

#define WARP_SIZE 32
#define WARPS_PER_BLOCK 4

__global__ void wmma_bf16_gemm(const __nv_bfloat16 *__restrict__ A,
                               const __nv_bfloat16 *__restrict__ Bt,
                               float *__restrict__ C, int M, int N, int K,
                               float alpha) {
  const int warpId = threadIdx.x / WARP_SIZE;
  const int tileRow = blockIdx.y * 2 + warpId / 2;
  const int tileCol = blockIdx.x * 2 + warpId % 2;
  if (tileRow * 16 >= M || tileCol * 16 >= N)
    return;

  wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::col_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);

  for (int k = 0; k < K; k += 16) {
    wmma::load_matrix_sync(a, A + (size_t)tileRow * 16 * K + k, K);
    wmma::load_matrix_sync(b, Bt + (size_t)tileCol * 16 * K + k, K);
    wmma::mma_sync(acc, a, b, acc);
  }
  // Element-wise scaling is layout-independent.
  for (int i = 0; i < acc.num_elements; ++i)
    acc.x[i] *= alpha;
  wmma::store_matrix_sync(C + (size_t)tileRow * 16 * N + tileCol * 16, acc, N,
                          wmma::mem_row_major);
}
