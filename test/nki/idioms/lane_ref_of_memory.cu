// lane_ref_of_memory: y[i] = max of the four lanes of x4[i], through a
// helper taking `float4 &` bound to the element in memory (not a local).
// The model binds references to locals only, and the values the failed
// call leaves are never combined (this once crashed the model); refused,
// with the element-wise lifter's reason (float4 elements on their own).
// EXPECT: refuse PK5007 "has no NKI dtype"
#include <cuda_runtime.h>

__device__ float lane_max(float4 &v) {
  return fmaxf(fmaxf(v.x, v.y), fmaxf(v.z, v.w));
}

__global__ void lane_ref_of_memory(float *y, float4 *x4, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = fmaxf(0.0f, lane_max(x4[i])); // EXPECT-AT
}
