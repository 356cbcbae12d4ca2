// Every operand layout of WMMA m16n16k16: A col-major and row-major, B
// row-major and col-major, accumulators loaded col-major and row-major and
// stored row-major and col-major, a fragment passed to a device function.
// A is 16 x 32, B is 32 x 64, C is 16 x 64; warp w of the 128-thread block
// computes columns 16w .. 16w+15 of
//   D1 = A * B + C            (Ac, Br, Cc in; D1 row-major, ld 64)
//   D2 = 0.5 * (A * B + C)    (Ar, Bc, Cr in; D2 col-major, ld 16)
#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

__device__ void scale_tile(wmma::fragment<wmma::accumulator, 16, 16, 16, float> &f,
                           float s) {
  for (int i = 0; i < f.num_elements; ++i)
    f.x[i] *= s;
}

__global__ void wmma_layouts(const half *Ar, const half *Ac, const half *Br,
                             const half *Bc, const float *Cr, const float *Cc,
                             float *D1, float *D2) {
  const int w = threadIdx.x / 32;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::col_major> aCol;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> aRow;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> bRow;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> bCol;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc1, acc2;
  wmma::load_matrix_sync(acc1, Cc + 16 * w * 16, 16, wmma::mem_col_major);
  wmma::load_matrix_sync(acc2, Cr + 16 * w, 64, wmma::mem_row_major);
  for (int k = 0; k < 32; k += 16) {
    wmma::load_matrix_sync(aCol, Ac + k * 16, 16);
    wmma::load_matrix_sync(bRow, Br + k * 64 + 16 * w, 64);
    wmma::mma_sync(acc1, aCol, bRow, acc1);
    wmma::load_matrix_sync(aRow, Ar + k, 32);
    wmma::load_matrix_sync(bCol, Bc + 16 * w * 32 + k, 32);
    wmma::mma_sync(acc2, aRow, bCol, acc2);
  }
  scale_tile(acc2, 0.5f);
  wmma::store_matrix_sync(D1 + 16 * w, acc1, 64, wmma::mem_row_major);
  wmma::store_matrix_sync(D2 + 16 * w * 16, acc2, 16, wmma::mem_col_major);
}
