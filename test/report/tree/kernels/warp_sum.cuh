// A warp's sum by register shuffles (lanes 16 .. 1).
#pragma once
#include <cuda_runtime.h>

__device__ __forceinline__ float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffff, v, offset);
  return v;
}
