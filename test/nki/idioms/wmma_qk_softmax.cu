// wmma_qk_softmax: attention probabilities P = softmax(scale * Q K^T) for
// 32 keys of head size 64, the scores from tensor cores.
// Idiom: two warps per block of 16 query rows, one 16x16 score tile each
// (K read as a col-major matrix_b, i.e. K^T), fragments declared inside an
// unrolled k loop, the unscaled scores stored to an unpadded shared tile,
// then one key per lane: the scaling, row max and row sum in the softmax
// with shuffles, the store bounded by the query count only.
// EXPECT: lift
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

#define HD 64 // head size
#define NK 32 // keys

__global__ void wmma_qk_softmax(float *P, const half *Q, const half *K,
                                float scale, int seqQ) {
  __shared__ float S[16][NK];
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  const int q0 = blockIdx.x * 16;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
#pragma unroll
  for (int k = 0; k < HD; k += 16) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> b;
    wmma::load_matrix_sync(a, Q + q0 * HD + k, HD);
    wmma::load_matrix_sync(b, K + warp * 16 * HD + k, HD);
    wmma::mma_sync(acc, a, b, acc);
  }
  wmma::store_matrix_sync(&S[0][warp * 16], acc, NK, wmma::mem_row_major);
  __syncthreads();
  for (int r = warp; r < 16; r += 2) {
    const float v = S[r][lane] * scale;
    float m = v;
    for (int o = 16; o; o >>= 1)
      m = fmaxf(m, __shfl_xor_sync(~0u, m, o));
    const float e = __expf(v - m);
    float s = e;
    for (int o = 16; o; o >>= 1)
      s += __shfl_xor_sync(~0u, s, o);
    const int row = q0 + r;
    if (row < seqQ)
      P[row * NK + lane] = e / s;
  }
}
