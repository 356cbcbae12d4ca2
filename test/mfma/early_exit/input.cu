// PK3003 with memory traffic after the early return: the scalar read becomes
// a masked initializer, the epilogue loop runs only for live lanes.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

__global__ void wmma_exit_epilogue(const half *A, const half *B, const float *scale,
                                   const float *bias, float *C, int M, int N, int K) {
  __shared__ float tile[4][16 * 16];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int tileRow = blockIdx.y * 2 + warp / 2;
  const int tileCol = blockIdx.x * 2 + warp % 2;
  if (tileRow * 16 >= M || tileCol * 16 >= N)
    return;
  const float s = scale[tileRow];
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  for (int k = 0; k < K; k += 16) {
    wmma::load_matrix_sync(a, A + (size_t)tileRow * 16 * K + k, K);
    wmma::load_matrix_sync(b, B + (size_t)k * N + tileCol * 16, N);
    wmma::mma_sync(acc, a, b, acc);
  }
  wmma::store_matrix_sync(tile[warp], acc, 16, wmma::mem_row_major);
  __syncwarp();
  for (int e = lane; e < 16 * 16; e += 32) {
    const int r = e / 16, c = e % 16;
    const float v = s * tile[warp][e] + bias[tileCol * 16 + c];
    C[(size_t)(tileRow * 16 + r) * N + tileCol * 16 + c] = v > 0.0f ? v : 0.0f;
  }
}
