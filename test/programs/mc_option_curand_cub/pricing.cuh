// Monte Carlo kernels: European options priced from normal draws (one path
// per draw, terminal price of geometric Brownian motion), and pi from
// uniform draws; per-block sums with cub::BlockReduce.
#pragma once
#include <cub/cub.cuh>
#include "checks.h"

struct OptionParams {
  float S0;    // spot
  float K;     // strike
  float r;     // risk-free rate
  float sigma; // volatility
  float T;     // maturity (years)
};

enum class OptionType { Call, Put };

template <OptionType Type>
__device__ __forceinline__ float payoff(float ST, float K) {
  return Type == OptionType::Call ? fmaxf(ST - K, 0.0f) : fmaxf(K - ST, 0.0f);
}

// Each thread prices ITEMS paths; the block's sums of the payoff and of its
// square go to partial[2 * blockIdx.x + {0,1}].
template <int BLOCK_THREADS, int ITEMS, OptionType Type>
__global__ void priceOptionKernel(const float *__restrict__ z, int nPaths, OptionParams p,
                                  float *__restrict__ partial) {
  typedef cub::BlockReduce<float, BLOCK_THREADS> BlockReduceT;
  __shared__ typename BlockReduceT::TempStorage tmpSum;
  __shared__ typename BlockReduceT::TempStorage tmpSq;

  const float drift = (p.r - 0.5f * p.sigma * p.sigma) * p.T;
  const float vol = p.sigma * sqrtf(p.T);
  float sum = 0.0f, sq = 0.0f;
  const int base = blockIdx.x * BLOCK_THREADS * ITEMS;
#pragma unroll
  for (int it = 0; it < ITEMS; ++it) {
    const int path = base + it * BLOCK_THREADS + threadIdx.x; // coalesced
    if (path < nPaths) {
      float ST = p.S0 * expf(drift + vol * z[path]);
      float v = payoff<Type>(ST, p.K);
      sum += v;
      sq += v * v;
    }
  }
  float blockSum = BlockReduceT(tmpSum).Sum(sum);
  float blockSq = BlockReduceT(tmpSq).Sum(sq);
  if (threadIdx.x == 0) {
    partial[2 * blockIdx.x] = blockSum;
    partial[2 * blockIdx.x + 1] = blockSq;
  }
}

// Points (u[2i], u[2i+1]) inside the quarter circle, counted per block.
template <int BLOCK_THREADS>
__global__ void piKernel(const float *__restrict__ u, int nPoints, int *__restrict__ hits) {
  typedef cub::BlockReduce<int, BLOCK_THREADS> BlockReduceT;
  __shared__ typename BlockReduceT::TempStorage tmp;
  int inside = 0;
  for (int i = blockIdx.x * BLOCK_THREADS + threadIdx.x; i < nPoints;
       i += gridDim.x * BLOCK_THREADS) {
    float x = u[2 * i], y = u[2 * i + 1];
    inside += (x * x + y * y <= 1.0f) ? 1 : 0;
  }
  int total = BlockReduceT(tmp).Sum(inside);
  if (threadIdx.x == 0)
    atomicAdd(hits, total);
}
