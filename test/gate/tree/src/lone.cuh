// Included by no file of the tree: checked on its own.
#pragma once
__device__ inline float loneSeg(float h) {
  return h + __shfl_down_sync(0x0000ffff, h, 1, 16);
}
