// cross_float3: c[i] = a[i] x b[i], the cross product of n pairs of
// float3 vectors.
// Idiom: a helper that returns a record, fields mixed across both inputs.
// EXPECT: lift
#include <cuda_runtime.h>

__device__ float3 cross3(float3 u, float3 v) {
  return make_float3(u.y * v.z - u.z * v.y, u.z * v.x - u.x * v.z,
                     u.x * v.y - u.y * v.x);
}

__global__ void cross_float3(float3 *c, const float3 *a, const float3 *b,
                             int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = cross3(a[i], b[i]);
}
