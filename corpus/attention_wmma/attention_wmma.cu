// Attention probabilities P = softmax(scale * Q K^T) with tensor cores.
// Q is seqQ x HEAD_DIM and K is SEQ_K x HEAD_DIM, both half and row-major;
// P is seqQ x SEQ_K float.  A block of 4 warps takes 16 query rows: warp w
// computes the 16x16 score tile of keys 16w .. 16w+15 with WMMA (K read as a
// col-major B operand, i.e. K^T), scales it element-wise and stores it to a
// shared score tile; then each warp normalises 4 of the rows with shuffles.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

#define HEAD_DIM 32
#define SEQ_K 64
#define ROWS 16
#define WARPS 4
#define SPAD 4 // floats of padding per shared row

__global__ void attention_wmma(const __half *__restrict__ Q,
                               const __half *__restrict__ K,
                               float *__restrict__ P, int seqQ, float scale) {
  __shared__ float S[ROWS][SEQ_K + SPAD];
  const int warp = threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  const int row0 = blockIdx.x * ROWS;
  if (row0 >= seqQ)
    return; // the whole block

  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> q;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> kt;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> s;
  wmma::fill_fragment(s, 0.0f);
  for (int d = 0; d < HEAD_DIM; d += 16) {
    wmma::load_matrix_sync(q, Q + (size_t)row0 * HEAD_DIM + d, HEAD_DIM);
    wmma::load_matrix_sync(kt, K + (size_t)warp * 16 * HEAD_DIM + d, HEAD_DIM);
    wmma::mma_sync(s, q, kt, s);
  }
  for (int i = 0; i < s.num_elements; ++i)
    s.x[i] *= scale;
  wmma::store_matrix_sync(&S[0][warp * 16], s, SEQ_K + SPAD,
                          wmma::mem_row_major);
  __syncthreads();

  // Row softmax: warp w normalises rows w, w + 4, w + 8, w + 12.
  for (int r = warp; r < ROWS; r += WARPS) {
    const float v0 = S[r][lane], v1 = S[r][lane + 32];
    float m = fmaxf(v0, v1);
    for (int o = 16; o > 0; o /= 2)
      m = fmaxf(m, __shfl_xor_sync(0xffffffff, m, o));
    const float e0 = expf(v0 - m), e1 = expf(v1 - m);
    float sum = e0 + e1;
    for (int o = 16; o > 0; o /= 2)
      sum += __shfl_xor_sync(0xffffffff, sum, o);
    const int row = row0 + r;
    if (row < seqQ) {
      P[(size_t)row * SEQ_K + lane] = e0 / sum;
      P[(size_t)row * SEQ_K + lane + 32] = e1 / sum;
    }
  }
}
