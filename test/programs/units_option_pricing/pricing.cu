// The device side of the option pricer: constant memory, a pricing kernel
// and a warp-shuffle reduction that assumes 32-lane warps.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#include "pricing.h"

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t e_ = (call);                                                   \
    if (e_ != cudaSuccess) {                                                   \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                  \
                   cudaGetErrorString(e_));                                    \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

__constant__ PricingParams c_params;

// A file-local helper: pricing_gold.cpp has a different function of the same
// name, which only separate translation units allow.
static int blocksFor(int n, int threads) { return (n + threads - 1) / threads; }

__device__ inline float cnd(float d) {
  const float a1 = 0.31938153f, a2 = -0.356563782f, a3 = 1.781477937f,
              a4 = -1.821255978f, a5 = 1.330274429f;
  const float rsqrt2pi = 0.39894228040143267794f;
  float k = 1.0f / (1.0f + 0.2316419f * fabsf(d));
  float c = rsqrt2pi * expf(-0.5f * d * d) *
            (k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5)))));
  return d > 0 ? 1.0f - c : c;
}

__global__ void priceKernel(float *call, float *put, const float *spot,
                            const float *strike, const float *years, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x) {
    float s = spot[i], x = strike[i], t = years[i];
    float r = c_params.riskFree, v = c_params.volatility;
    float sqrtT = sqrtf(t);
    float d1 = (logf(s / x) + (r + 0.5f * v * v) * t) / (v * sqrtT);
    float d2 = d1 - v * sqrtT;
    float expRT = expf(-r * t);
    call[i] = s * cnd(d1) - x * expRT * cnd(d2);
    put[i] = x * expRT * (1.0f - cnd(d2)) - s * (1.0f - cnd(d1));
  }
}

// 256 threads, eight warps of 32: lane and warp from threadIdx.x & 31 and
// >> 5, a full-mask shuffle tree from offset 16.
__global__ void sumKernel(const float *in, float *blockSums, int n) {
  __shared__ float warpSums[8];
  float v = 0.0f;
  // CUDA's device-side umin.
  const int limit = (int)umin((unsigned)n, 0x7fffffffu);
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < limit;
       i += blockDim.x * gridDim.x)
    v += in[i];
  for (int offset = 16; offset > 0; offset >>= 1)
    v += __shfl_down_sync(0xffffffff, v, offset);
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0)
    warpSums[warp] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    float s = 0.0f;
    for (int w = 0; w < 8; ++w)
      s += warpSums[w];
    blockSums[blockIdx.x] = s;
  }
}

int priceOnDevice(float *d_call, float *d_put, const float *d_spot,
                  const float *d_strike, const float *d_years, int n,
                  PricingParams p) {
  CHECK(cudaMemcpyToSymbol(c_params, &p, sizeof(p)));
  int blocks = blocksFor(n, 128);
  if (blocks > 64)
    blocks = 64;
  priceKernel<<<blocks, 128>>>(d_call, d_put, d_spot, d_strike, d_years, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  return blocks;
}

double sumOnDevice(const float *d_values, int n) {
  const int threads = 256;
  int blocks = blocksFor(n, threads);
  if (blocks > 32)
    blocks = 32;
  float *d_sums = nullptr;
  CHECK(cudaMalloc(&d_sums, blocks * sizeof(float)));
  sumKernel<<<blocks, threads>>>(d_values, d_sums, n);
  CHECK(cudaGetLastError());
  float h_sums[32];
  CHECK(cudaMemcpy(h_sums, d_sums, blocks * sizeof(float),
                   cudaMemcpyDeviceToHost));
  CHECK(cudaFree(d_sums));
  double total = 0.0;
  for (int b = 0; b < blocks; ++b)
    total += h_sums[b];
  return total;
}
