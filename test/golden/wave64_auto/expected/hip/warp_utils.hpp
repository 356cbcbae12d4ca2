// Warp helpers shared by the kernels of input.cu.
#pragma once
#include <hip/hip_runtime.h>

#define WARP_SIZE 32

// Every lane receives the warp's sum.
__device__ __forceinline__ float warp_sum(float v) {
  for (int o = WARP_SIZE / 2; o > 0; o /= 2)
    v += __shfl_xor(v, o, 32);
  return v;
}
