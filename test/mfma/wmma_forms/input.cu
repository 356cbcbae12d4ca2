// The spellings of the WMMA API that the MFMA port handles: using
// directives, full qualification, a namespace alias, macros, fragment arrays,
// fragments passed to device functions, templates, col-major A, accumulator
// loads of both layouts.
#include <cuda_fp16.h>
#include <mma.h>

#define FRAG_ACC nvcuda::wmma::fragment<nvcuda::wmma::accumulator, 16, 16, 16, float>

namespace tc = nvcuda::wmma;

__device__ void axpy_tile(FRAG_ACC &y, const FRAG_ACC &x, float a) {
  for (int i = 0; i < y.num_elements; i++)
    y.x[i] = a * x.x[i] + y.x[i];
}

__global__ void __launch_bounds__(128)
two_tiles(const half *At, const half *B, const float *Cin, float *Cout, int ld) {
  using namespace nvcuda::wmma;
  fragment<matrix_a, 16, 16, 16, half, col_major> a;
  fragment<matrix_b, 16, 16, 16, half, row_major> b[2];
  FRAG_ACC acc[2];
  tc::fragment<tc::accumulator, 16, 16, 16, float> c;
  load_matrix_sync(a, At, ld);
  for (int j = 0; j < 2; ++j) {
    load_matrix_sync(b[j], B + 16 * j, ld);
    fill_fragment(acc[j], 0.0f);
    mma_sync(acc[j], a, b[j], acc[j]);
  }
  tc::load_matrix_sync(c, Cin, ld, tc::mem_col_major);
  axpy_tile(acc[0], c, 2.0f);
  tc::load_matrix_sync(c, Cin + 16, ld, tc::mem_row_major);
  axpy_tile(acc[1], c, -1.0f);
  store_matrix_sync(Cout, acc[0], ld, mem_row_major);
  store_matrix_sync(Cout + 16, acc[1], ld, mem_col_major);
}

template <typename T>
__global__ void tile_gemm(const T *A, const T *B, float *C, int K) {
  nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 16, 16, 16, T, nvcuda::wmma::row_major> a;
  nvcuda::wmma::fragment<nvcuda::wmma::matrix_b, 16, 16, 16, T, nvcuda::wmma::col_major> b;
  FRAG_ACC acc;
  nvcuda::wmma::fill_fragment(acc, 0.0f);
  for (int k = 0; k < K; k += 16) {
    nvcuda::wmma::load_matrix_sync(a, A + k, K);
    nvcuda::wmma::load_matrix_sync(b, B + k, K);
    nvcuda::wmma::mma_sync(acc, a, b, acc);
  }
  nvcuda::wmma::store_matrix_sync(C, acc, 16, nvcuda::wmma::mem_row_major);
}

template __global__ void tile_gemm<half>(const half *, const half *, float *, int);
