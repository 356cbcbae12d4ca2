// scale_float4: y = a * x over n floats (n a multiple of 4), read and
// written four at a time: one thread per float4.
// Idiom: reinterpret_cast to float4 for 128-bit loads and stores, the
// fields scaled one by one, the bound on the first float of the thread.
// EXPECT: lift
#include <cuda_runtime.h>

__global__ void scale_float4(float *y, const float *x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i * 4 >= n)
    return;
  float4 v = reinterpret_cast<const float4 *>(x)[i];
  v.x *= a;
  v.y *= a;
  v.z *= a;
  v.w *= a;
  reinterpret_cast<float4 *>(y)[i] = v;
}
