// Layer normalisation of a transformer's activations: one warp per row of
// C = 768 channels, mean and variance by xor butterflies, 8 rows per block of
// 256 threads.  Default: 16384 rows (48 MB per buffer).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "bench_common.h"

__device__ float warpAllSum(float v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o);
  return v;
}

__global__ void layernorm(float *out, const float *in, const float *gamma, const float *beta,
                          int rows, int C) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int lane = threadIdx.x % 32;
  if (warp >= rows) return;
  const float *x = in + (size_t)warp * C;
  float s = 0.0f;
  for (int i = lane; i < C; i += 32) s += x[i];
  float mean = warpAllSum(s) / C;
  float v = 0.0f;
  for (int i = lane; i < C; i += 32) {
    float d = x[i] - mean;
    v += d * d;
  }
  float rstd = rsqrtf(warpAllSum(v) / C + 1e-5f);
  float *y = out + (size_t)warp * C;
  for (int i = lane; i < C; i += 32) y[i] = (x[i] - mean) * rstd * gamma[i] + beta[i];
}

BENCH_NATIVE static void layernormHost(float *out, const float *in, const float *gamma,
                                       const float *beta, int rows, int C) {
  for (int r = 0; r < rows; ++r) {
    const float *x = in + (size_t)r * C;
    float s = 0.0f;
    for (int i = 0; i < C; ++i) s += x[i];
    float mean = s / C, v = 0.0f;
    for (int i = 0; i < C; ++i) v += (x[i] - mean) * (x[i] - mean);
    float rstd = 1.0f / sqrtf(v / C + 1e-5f);
    for (int i = 0; i < C; ++i) out[(size_t)r * C + i] = (x[i] - mean) * rstd * gamma[i] + beta[i];
  }
}

BENCH_NATIVE static void fill(float *p, size_t n, uint32_t seed, float lo, float hi) {
  for (size_t i = 0; i < n; ++i) p[i] = lo + (hi - lo) * (float)(benchLcg(seed) >> 8) / 16777216.0f;
}

int main(int argc, char **argv) {
  int rows = argc > 1 ? atoi(argv[1]) : 16384;
  const int C = 768;
  size_t n = (size_t)rows * C;
  std::vector<float> in(n), ref(n), got(n), gamma(C), beta(C);
  fill(in.data(), n, 3u, -2.0f, 2.0f);
  fill(gamma.data(), C, 5u, 0.5f, 1.5f);
  fill(beta.data(), C, 9u, -0.1f, 0.1f);
  if (int reps = benchNativeReps()) {
    for (int r = 0; r < reps; ++r) {
      benchClobber();
      layernormHost(ref.data(), in.data(), gamma.data(), beta.data(), rows, C);
    }
    return 0;
  }
  float *dIn, *dOut, *dG, *dB;
  cudaMalloc((void **)&dIn, n * sizeof(float));
  cudaMalloc((void **)&dOut, n * sizeof(float));
  cudaMalloc((void **)&dG, C * sizeof(float));
  cudaMalloc((void **)&dB, C * sizeof(float));
  cudaMemcpy(dIn, in.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dG, gamma.data(), C * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dB, beta.data(), C * sizeof(float), cudaMemcpyHostToDevice);
  double t0 = benchNow();
  layernorm<<<(rows * 32 + 255) / 256, 256>>>(dOut, dIn, dG, dB, rows, C);
  cudaDeviceSynchronize();
  double emulated = benchNow() - t0;
  t0 = benchNow();
  layernormHost(ref.data(), in.data(), gamma.data(), beta.data(), rows, C);
  double native = benchNow() - t0;
  cudaMemcpy(got.data(), dOut, n * sizeof(float), cudaMemcpyDeviceToHost);
  double err = 0.0;
  for (size_t i = 0; i < n; ++i) err = fmax(err, fabs((double)got[i] - ref[i]));
  benchReport("layernorm_rows", emulated, native);
  printf("%d x %d: max error %.2e %s\n", rows, C, err, err < 1e-4 ? "PASS" : "FAIL");
  return err < 1e-4 ? 0 : 1;
}
