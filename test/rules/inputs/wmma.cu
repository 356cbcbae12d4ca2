// Tensor-core matrix multiply with nvcuda::wmma (16x16x16, half inputs,
// float accumulation).
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

constexpr int M = 16, N = 16, K = 16;

__global__ void wmmaGemm(const half *a, const half *b, float *c, int lda, int ldb, int ldc,
                         int kTiles) {
  wmma::fragment<wmma::matrix_a, M, N, K, half, wmma::row_major> aFrag;
  wmma::fragment<wmma::matrix_b, M, N, K, half, wmma::col_major> bFrag;
  wmma::fragment<wmma::accumulator, M, N, K, float> acc;
  wmma::fragment<wmma::accumulator, M, N, K, float> cFrag;
  wmma::fill_fragment(acc, 0.0f);
  for (int t = 0; t < kTiles; ++t) {
    wmma::load_matrix_sync(aFrag, a + t * K, lda);
    wmma::load_matrix_sync(bFrag, b + t * K, ldb);
    wmma::mma_sync(acc, aFrag, bFrag, acc);
  }
  wmma::load_matrix_sync(cFrag, c, ldc, wmma::mem_row_major);
  for (int i = 0; i < cFrag.num_elements; ++i) cFrag.x[i] = 0.5f * cFrag.x[i] + acc.x[i];
  wmma::store_matrix_sync(c, cFrag, ldc, wmma::mem_row_major);
}

int main() {
  half *a, *b;
  float *c;
  cudaMalloc(&a, M * K * sizeof(half));
  cudaMalloc(&b, K * N * sizeof(half));
  cudaMalloc(&c, M * N * sizeof(float));
  wmmaGemm<<<1, 32>>>(a, b, c, K, K, N, 1);
  cudaDeviceSynchronize();
  cudaFree(a);
  cudaFree(b);
  cudaFree(c);
  return 0;
}
