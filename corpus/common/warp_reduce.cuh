// Warp- and block-level reductions shared by the normalisation kernels.
//
// Written for 32-thread warps: the shuffle loops start at offset 16 and the
// per-warp scratch array holds one slot per warp of a block of up to 1024
// threads.
#pragma once

#include <cuda_runtime.h>

#ifndef WARP_SIZE
#define WARP_SIZE 32
#endif

#define FULL_MASK 0xffffffffu

// Lane 0 receives the sum of v over the warp.
__device__ __forceinline__ float warpReduceSum(float v) {
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1)
    v += __shfl_down_sync(FULL_MASK, v, offset);
  return v;
}

// Every lane receives the sum of v over the warp.
__device__ __forceinline__ float warpAllReduceSum(float v) {
#pragma unroll
  for (int mask = WARP_SIZE / 2; mask > 0; mask >>= 1)
    v += __shfl_xor_sync(FULL_MASK, v, mask);
  return v;
}

// Every lane receives the maximum of v over the warp.
__device__ __forceinline__ float warpAllReduceMax(float v) {
#pragma unroll
  for (int mask = WARP_SIZE / 2; mask > 0; mask >>= 1)
    v = fmaxf(v, __shfl_xor_sync(FULL_MASK, v, mask));
  return v;
}

// Sum of v over the block; every thread receives it.
// blockDim.x must be a multiple of WARP_SIZE.
__device__ float blockReduceSum(float v) {
  __shared__ float warpSums[32];
  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x >> 5;

  v = warpReduceSum(v);
  if (lane == 0)
    warpSums[warp] = v;
  __syncthreads();

  const int nwarps = blockDim.x / WARP_SIZE;
  if (warp == 0) {
    v = (lane < nwarps) ? warpSums[lane] : 0.0f;
    v = warpReduceSum(v);
    if (lane == 0)
      warpSums[0] = v;
  }
  __syncthreads();
  const float total = warpSums[0];
  __syncthreads(); // warpSums is reused by the next call
  return total;
}
