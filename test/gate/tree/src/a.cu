#include "common.cuh"
__global__ void sumA(const float *in, float *out) {
  float s = warpSum(in[threadIdx.x]);
  if (threadIdx.x % 32 == 0)
    out[threadIdx.x / 32] = s;
}
