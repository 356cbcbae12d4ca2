// Warp helpers shared by the kernels of input.cu.
#pragma once
#include <cuda_runtime.h>

#define WARP_SIZE 32

// Every lane receives the warp's sum.
__device__ __forceinline__ float warp_sum(float v) {
  for (int o = WARP_SIZE / 2; o > 0; o /= 2)
    v += __shfl_xor_sync(0xffffffff, v, o);
  return v;
}
