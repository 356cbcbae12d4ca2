// complex_mul_two_per_thread: c = a * b for n complex numbers stored as
// (re, im) pairs, two numbers per thread (n even).
// Idiom: a float4 holding two complex numbers, fields mixed within each.
// EXPECT: lift
#include <cuda_runtime.h>

__global__ void complex_mul_two_per_thread(float4 *c, const float4 *a,
                                           const float4 *b, int n2) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n2)
    return;
  float4 x = a[i], y = b[i];
  c[i] = make_float4(x.x * y.x - x.y * y.y, x.x * y.y + x.y * y.x,
                     x.z * y.z - x.w * y.w, x.z * y.w + x.w * y.z);
}
