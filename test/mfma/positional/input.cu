// Fragment elements accessed by position: layout-dependent (PK3010).  The
// loop over num_elements at the end is element-wise and is not reported.
#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

__device__ float first(const float *x) { return x[0]; }

__global__ void positional(const half *A, const half *B, float *C, float *out) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  wmma::load_matrix_sync(a, A, 16);
  wmma::load_matrix_sync(b, B, 16);
  wmma::mma_sync(acc, a, b, acc);
  const int lane = threadIdx.x % 32;
  if (lane == 0)
    out[0] = acc.x[0];                  // a constant index
  float s = 0.0f;
  for (int i = 0; i < 8; ++i)           // NVIDIA's count, not num_elements
    s += acc.x[i];
  out[1 + lane] = s;
  out[40 + lane] = acc.x[lane % 8];     // a computed index
  for (int i = 0; i < a.num_elements; ++i) // another fragment type's count
    acc.x[i] = 0.0f;
  for (int i = 0; i < acc.num_elements; ++i) // the index selects other data
    acc.x[i] += out[i];
  out[80] = first(acc.x);               // the array itself
  for (int i = 0; i < acc.num_elements; ++i)
    acc.x[i] = acc.x[i] > 0.0f ? acc.x[i] : 0.0f;
  wmma::store_matrix_sync(C, acc, 16, wmma::mem_row_major);
}
