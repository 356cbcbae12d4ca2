// gemm_tiled_txty: C = A * B (A is M x K, B is K x N, row-major).
// Idiom: the textbook shared-memory tiled GEMM with 16 x 16 tiles,
// `int tx = threadIdx.x; int ty = threadIdx.y;`, a loop over the tile count
// `t < (K + TILE - 1) / TILE`, zero fill past the edges.
// EXPECT: lift
#include <cuda_runtime.h>

#define TILE 16

__global__ void gemm_tiled_txty(const float *A, const float *B, float *C,
                                int M, int N, int K) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int tx = threadIdx.x;
  int ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty;
  int col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
    if (row < M && t * TILE + tx < K)
      As[ty][tx] = A[row * K + t * TILE + tx];
    else
      As[ty][tx] = 0.0f;
    if (col < N && t * TILE + ty < K)
      Bs[ty][tx] = B[(t * TILE + ty) * N + col];
    else
      Bs[ty][tx] = 0.0f;
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}
