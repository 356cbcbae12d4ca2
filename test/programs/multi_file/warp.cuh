// Warp-level helpers shared by the kernels (a header of the program).
#pragma once

#ifndef WARP_SIZE
#error "build with -DWARP_SIZE=32"
#endif

__device__ __forceinline__ float warpReduceSum(float v) {
  for (int offset = WARP_SIZE / 2; offset > 0; offset >>= 1)
    v += __shfl_down_sync(0xffffffff, v, offset);
  return v;
}
