// Every thread records the width of its warp.
#include <cuda_runtime.h>

__global__ void warp_width(int *out) {
  out[threadIdx.x] = warpSize;
}
