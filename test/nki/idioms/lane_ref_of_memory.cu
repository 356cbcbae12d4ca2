// lane_ref_of_memory: y[i] = max of the four lanes of x4[i], through a
// helper taking `float4 &` bound to the element in memory (not a local).
// The reference is bound to the element's address (a call that failed
// here once left values its caller combined: a crash of the model).
// EXPECT: lift
#include <cuda_runtime.h>

__device__ float lane_max(float4 &v) {
  return fmaxf(fmaxf(v.x, v.y), fmaxf(v.z, v.w));
}

__global__ void lane_ref_of_memory(float *y, float4 *x4, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = fmaxf(0.0f, lane_max(x4[i]));
}
