// Normal samples from cuRAND's host API, summarised on the device with CUB
// collectives, checked against the same samples on the CPU; prints PASS or
// FAIL and exits 0.
#include <cmath>
#include <cstdio>
#include <vector>
#include <curand.h>
#include "stats.cuh"

// The library's error names only where its header is seen (curand.h's
// include guard, as the sample suites' helper_cuda.h tests; HIP: hiprand.h's).
#ifdef CURAND_H_
static const char *curandErrorName(curandStatus_t s) {
  return s == CURAND_STATUS_SUCCESS ? "CURAND_STATUS_SUCCESS"
         : s == CURAND_STATUS_NOT_INITIALIZED ? "CURAND_STATUS_NOT_INITIALIZED"
                                              : "<other>";
}
#endif
#define CURAND_CHECK(call)                                                    \
  do {                                                                        \
    curandStatus_t st_ = (call);                                              \
    if (st_ != CURAND_STATUS_SUCCESS) {                                       \
      std::printf("cuRAND error %s at line %d\n", curandErrorName(st_),       \
                  __LINE__);                                                  \
      return 1;                                                               \
    }                                                                         \
  } while (0)

int main() {
  const int n = 1000, blocks = (n + BLOCK - 1) / BLOCK;
  float *d_x, *d_sum, *d_max;
  int *d_off;
  cudaMalloc(&d_x, n * sizeof(float));
  cudaMalloc(&d_sum, blocks * sizeof(float));
  cudaMalloc(&d_max, blocks * WARPS_PER_BLOCK * sizeof(float));
  cudaMalloc(&d_off, n * sizeof(int));

  curandGenerator_t gen;
  CURAND_CHECK(curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_DEFAULT));
  CURAND_CHECK(curandSetPseudoRandomGeneratorSeed(gen, 1234ULL));
  CURAND_CHECK(curandGenerateNormal(gen, d_x, n, 0.5f, 2.0f));
  // An odd count of normal values is refused, as cuRAND does.
  bool odd_refused = curandGenerateNormal(gen, d_x, 3, 0.0f, 1.0f) != CURAND_STATUS_SUCCESS;

  block_stats<<<blocks, BLOCK>>>(d_x, d_sum, d_max, d_off, n);
  cudaDeviceSynchronize();

  std::vector<float> x(n), sum(blocks), mx(blocks * WARPS_PER_BLOCK);
  std::vector<int> off(n);
  cudaMemcpy(x.data(), d_x, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(sum.data(), d_sum, blocks * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(mx.data(), d_max, mx.size() * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(off.data(), d_off, n * sizeof(int), cudaMemcpyDeviceToHost);

  bool ok = odd_refused;
  double mean = 0;
  for (float v : x) mean += v;
  mean /= n;
  if (std::fabs(mean - 0.5) > 0.3) { std::printf("sample mean %f\n", mean); ok = false; }
  for (int b = 0; b < blocks && ok; ++b) {
    float s = 0.0f;
    int pos = 0;
    for (int t = 0; t < BLOCK; ++t) {
      int i = b * BLOCK + t;
      if (i < n && off[i] != pos) { std::printf("offset[%d] = %d, expected %d\n", i, off[i], pos); ok = false; }
      float v = i < n ? x[i] : 0.0f;
      s += v;
      pos += v > 0.0f;
    }
    if (std::fabs(s - sum[b]) > 1e-3f * (1.0f + std::fabs(s))) {
      std::printf("block %d: sum %f, expected %f\n", b, sum[b], s);
      ok = false;
    }
    for (int w = 0; w < WARPS_PER_BLOCK; ++w) {
      float m = -1e30f;
      for (int t = w * 32; t < w * 32 + 32; ++t)
        if (b * BLOCK + t < n) m = std::fmax(m, x[b * BLOCK + t]);
      if (mx[b * WARPS_PER_BLOCK + w] != m) {
        std::printf("block %d warp %d: max %f, expected %f\n", b, w, mx[b * WARPS_PER_BLOCK + w], m);
        ok = false;
      }
    }
  }
  CURAND_CHECK(curandDestroyGenerator(gen));
  cudaFree(d_x); cudaFree(d_sum); cudaFree(d_max); cudaFree(d_off);
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return 0;
}
