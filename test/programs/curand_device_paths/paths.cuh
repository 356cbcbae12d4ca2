// Per-thread generators of the cuRAND device API: one state per path,
// initialised once (seed, path index as the subsequence) and kept in device
// memory between launches, as Monte Carlo codes do.
#pragma once
#include <curand_kernel.h>

__global__ void init_states(curandState *states, unsigned long long seed, int paths) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p < paths)
    curand_init(seed, p, 0, &states[p]);
}

// One step of a geometric Brownian motion per path: S *= exp((mu - s^2/2) dt + s sqrt(dt) Z).
__global__ void gbm_step(curandState *states, float *spot, int paths, float mu, float sigma,
                         float dt) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= paths)
    return;
  curandState local = states[p];
  float z = curand_normal(&local);
  spot[p] *= expf((mu - 0.5f * sigma * sigma) * dt + sigma * sqrtf(dt) * z);
  states[p] = local;
}

// Uniform draws in (0, 1] and a quarter-circle hit count.
__global__ void quarter_circle(curandState *states, int paths, int draws, unsigned *hits) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= paths)
    return;
  curandState local = states[p];
  unsigned h = 0;
  for (int k = 0; k < draws; ++k) {
    float x = curand_uniform(&local), y = curand_uniform(&local);
    h += x * x + y * y <= 1.0f;
  }
  states[p] = local;
  atomicAdd(hits, h);
}
