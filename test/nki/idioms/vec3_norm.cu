// vec3_norm: out[i] = |p[i]| for n points stored as float3 (x, y, z), one
// thread per point.
// Idiom: an array of float3 structs, the fields read one by one.
// EXPECT: lift
#include <cuda_runtime.h>

__global__ void vec3_norm(float *out, const float3 *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float3 v = p[i];
    out[i] = sqrtf(v.x * v.x + v.y * v.y + v.z * v.z);
  }
}
