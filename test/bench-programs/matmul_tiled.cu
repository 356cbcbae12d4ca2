// C = A B with 16 x 16 shared-memory tiles (two barriers per tile step), the
// textbook tiled SGEMM.  Default: 512 x 768 times 768 x 768 (0.6 GFLOP).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "bench_common.h"

#define TILE 16

__global__ void matmulTiled(float *C, const float *A, const float *B, int M, int N, int K) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += TILE) {
    As[threadIdx.y][threadIdx.x] = row < M && k0 + threadIdx.x < K ? A[(size_t)row * K + k0 + threadIdx.x] : 0.0f;
    Bs[threadIdx.y][threadIdx.x] = col < N && k0 + threadIdx.y < K ? B[(size_t)(k0 + threadIdx.y) * N + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < TILE; ++k) acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }
  if (row < M && col < N) C[(size_t)row * N + col] = acc;
}

BENCH_NATIVE static void matmulHost(float *C, const float *A, const float *B, int M, int N, int K) {
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k) acc += A[(size_t)i * K + k] * B[(size_t)k * N + j];
      C[(size_t)i * N + j] = acc;
    }
}

BENCH_NATIVE static void fill(float *p, size_t n, uint32_t seed) {
  for (size_t i = 0; i < n; ++i) p[i] = (float)(benchLcg(seed) >> 8) / 16777216.0f - 0.5f;
}

int main(int argc, char **argv) {
  int M = argc > 1 ? atoi(argv[1]) : 512;
  int N = argc > 2 ? atoi(argv[2]) : 768;
  int K = argc > 3 ? atoi(argv[3]) : 768;
  std::vector<float> A((size_t)M * K), B((size_t)K * N), ref((size_t)M * N), got((size_t)M * N);
  fill(A.data(), A.size(), 1u);
  fill(B.data(), B.size(), 2u);
  if (int reps = benchNativeReps()) {
    for (int r = 0; r < reps; ++r) {
      benchClobber();
      matmulHost(ref.data(), A.data(), B.data(), M, N, K);
    }
    return 0;
  }
  float *dA, *dB, *dC;
  cudaMalloc((void **)&dA, A.size() * sizeof(float));
  cudaMalloc((void **)&dB, B.size() * sizeof(float));
  cudaMalloc((void **)&dC, got.size() * sizeof(float));
  cudaMemcpy(dA, A.data(), A.size() * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dB, B.data(), B.size() * sizeof(float), cudaMemcpyHostToDevice);
  double t0 = benchNow();
  matmulTiled<<<dim3((N + TILE - 1) / TILE, (M + TILE - 1) / TILE), dim3(TILE, TILE)>>>(dC, dA, dB, M, N, K);
  cudaDeviceSynchronize();
  double emulated = benchNow() - t0;
  t0 = benchNow();
  matmulHost(ref.data(), A.data(), B.data(), M, N, K);
  double native = benchNow() - t0;
  cudaMemcpy(got.data(), dC, got.size() * sizeof(float), cudaMemcpyDeviceToHost);
  double err = 0.0;
  for (size_t i = 0; i < got.size(); ++i) err = fmax(err, fabs((double)got[i] - ref[i]));
  benchReport("matmul_tiled", emulated, native);
  printf("%d x %d x %d: max error %.2e %s\n", M, N, K, err, err < 1e-3 ? "PASS" : "FAIL");
  return err < 1e-3 ? 0 : 1;
}
