// Host code only: allocates device memory through the runtime API, calls the
// device code of pricing.cu and checks it against pricing_gold.cpp.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <vector>

#include "pricing.h"

static float rand01(unsigned &state) {
  state = state * 1664525u + 1013904223u;
  return (state >> 8) * (1.0f / 16777216.0f);
}

int main(int argc, char **argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 20000;
  const PricingParams params{0.02f, 0.30f};
  std::vector<float> spot(n), strike(n), years(n);
  unsigned state = 12345u;
  for (int i = 0; i < n; ++i) {
    spot[i] = 5.0f + 25.0f * rand01(state);
    strike[i] = 1.0f + 99.0f * rand01(state);
    years[i] = 0.25f + 9.75f * rand01(state);
  }
  const size_t bytes = n * sizeof(float);
  float *d_spot, *d_strike, *d_years, *d_call, *d_put;
  cudaMalloc(&d_spot, bytes);
  cudaMalloc(&d_strike, bytes);
  cudaMalloc(&d_years, bytes);
  cudaMalloc(&d_call, bytes);
  cudaMalloc(&d_put, bytes);
  cudaMemcpy(d_spot, spot.data(), bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(d_strike, strike.data(), bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(d_years, years.data(), bytes, cudaMemcpyHostToDevice);

  int blocks =
      priceOnDevice(d_call, d_put, d_spot, d_strike, d_years, n, params);
  std::vector<float> call(n), put(n);
  cudaMemcpy(call.data(), d_call, bytes, cudaMemcpyDeviceToHost);
  cudaMemcpy(put.data(), d_put, bytes, cudaMemcpyDeviceToHost);
  double deviceCallSum = sumOnDevice(d_call, n);

  std::vector<double> refCall(n), refPut(n);
  priceOnHost(refCall.data(), refPut.data(), spot.data(), strike.data(),
              years.data(), n, params);
  double maxErr = 0.0, hostCallSum = 0.0;
  for (int i = 0; i < n; ++i) {
    maxErr = std::fmax(maxErr, std::fabs(call[i] - refCall[i]));
    maxErr = std::fmax(maxErr, std::fabs(put[i] - refPut[i]));
    hostCallSum += refCall[i];
  }
  double relSum = std::fabs(deviceCallSum - hostCallSum) / hostCallSum;
  std::printf("%d options, %d blocks: max error %.3g, call sum %.6g (host "
              "%.6g)\n",
              n, blocks, maxErr, deviceCallSum, hostCallSum);
  cudaFree(d_spot);
  cudaFree(d_strike);
  cudaFree(d_years);
  cudaFree(d_call);
  cudaFree(d_put);
  bool ok = maxErr < 1e-3 && relSum < 1e-5;
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
