// Header of the PK9002 test, included by PK9002.cu and block_total.cu.
#pragma once
#include <cuda_runtime.h>

__device__ inline float warp_sum(float v) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffff, v, offset);
  return v;
}
