#pragma once
#define WARP_SIZE 32
#define FULL_MASK 0xffffffffu

__device__ __forceinline__ float warp_reduce_sum(float v) {
  for (int o = WARP_SIZE / 2; o > 0; o >>= 1)
    v += __shfl_xor_sync(FULL_MASK, v, o);
  return v;
}
