// Helper header of the PK1006 test: translated as block_reduce.hpp for HIP,
// with its own local include rewritten too.
#pragma once
#include <cuda_runtime.h>
#include "detail/config.cuh"

__device__ inline float block_sum(float v, float *scratch) {
  scratch[threadIdx.x] = v;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s)
      scratch[threadIdx.x] += scratch[threadIdx.x + s];
    __syncthreads();
  }
  return scratch[0];
}
