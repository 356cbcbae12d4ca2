// Monte Carlo with the cuRAND device API: pi from uniform quads, and the
// mean of a geometric Brownian motion against its closed form
// E[S_T] = S_0 exp(mu T).  Self-checking within statistical tolerances.
#include <cmath>
#include <cstdio>
#include <cuda_runtime.h>
#include "paths.cuh"

#define CHECK(call)                                                                 \
  do {                                                                              \
    cudaError_t e_ = (call);                                                        \
    if (e_ != cudaSuccess) {                                                        \
      std::printf("%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));       \
      return 1;                                                                     \
    }                                                                               \
  } while (0)

int main() {
  const int paths = 3000, block = 128, grid = (paths + block - 1) / block;
  const int draws = 128, steps = 16;
  const float mu = 0.05f, sigma = 0.2f, T = 1.0f, s0 = 100.0f;
  curandState *states;
  float *spot;
  unsigned *hits;
  CHECK(cudaMalloc(&states, paths * sizeof(curandState)));
  CHECK(cudaMalloc(&spot, paths * sizeof(float)));
  CHECK(cudaMalloc(&hits, sizeof(unsigned)));
  CHECK(cudaMemset(hits, 0, sizeof(unsigned)));
  float *h_spot = new float[paths];
  for (int p = 0; p < paths; ++p) h_spot[p] = s0;
  CHECK(cudaMemcpy(spot, h_spot, paths * sizeof(float), cudaMemcpyHostToDevice));

  init_states<<<grid, block>>>(states, 20261205ull, paths);
  quarter_circle<<<grid, block>>>(states, paths, draws, hits);
  for (int s = 0; s < steps; ++s)
    gbm_step<<<grid, block>>>(states, spot, paths, mu, sigma, T / steps);
  CHECK(cudaGetLastError());
  unsigned h_hits = 0;
  CHECK(cudaMemcpy(&h_hits, hits, sizeof h_hits, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(h_spot, spot, paths * sizeof(float), cudaMemcpyDeviceToHost));

  double pi = 4.0 * h_hits / ((double)paths * draws);
  double mean = 0.0;
  for (int p = 0; p < paths; ++p) mean += h_spot[p];
  mean /= paths;
  double expect = s0 * std::exp(mu * T);
  // Standard errors: pi ~ 0.005 here, the mean ~ 0.37.
  bool ok = std::fabs(pi - M_PI) < 0.03 && std::fabs(mean - expect) < 2.0;
  std::printf("pi %.4f (error %.4f), mean S_T %.3f (closed form %.3f)\n", pi, pi - M_PI, mean,
              expect);
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  delete[] h_spot;
  cudaFree(states);
  cudaFree(spot);
  cudaFree(hits);
  return ok ? 0 : 1;
}
