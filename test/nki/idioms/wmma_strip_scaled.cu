// wmma_strip_scaled: C = alpha * A * B for A of M x 32 and B of 32 x 64
// (half, row-major), C float; M a multiple of 16.
// Idiom: a block of four warps computes a strip of 16 rows by all 64
// columns, warp w the 16x16 tile of columns 16w.., with a row-major
// matrix_b; the accumulator is scaled element by element through x[]
// (`c.x[i] = alpha * c.x[i]`) and stored straight to global memory.
// EXPECT: lift
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

#define KD 32
#define NC 64

__global__ void wmma_strip_scaled(float *C, const half *A, const half *B,
                                  float alpha) {
  const int warp = threadIdx.x / 32;
  const int m0 = blockIdx.x * 16, n0 = warp * 16;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
  wmma::fill_fragment(c, 0.0f);
  for (int k = 0; k < KD; k += 16) {
    wmma::load_matrix_sync(a, A + m0 * KD + k, KD);
    wmma::load_matrix_sync(b, B + k * NC + n0, NC);
    wmma::mma_sync(c, a, b, c);
  }
  for (int i = 0; i < c.num_elements; ++i)
    c.x[i] = alpha * c.x[i];
  wmma::store_matrix_sync(C + m0 * NC + n0, c, NC, wmma::mem_row_major);
}
