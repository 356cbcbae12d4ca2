// int_as_float4: reads int data through a float4 pointer (the bits of one
// type read as another), one thread per float4.
// Idiom: reinterpret_cast between element types.  Refused at the cast:
// NKI moves values, and the model does not follow bit reinterpretation.
// EXPECT: refuse PK5007 "the bits of one scalar type read as another"
#include <cuda_runtime.h>

__global__ void int_as_float4(float *y, const int *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i * 4 >= n)
    return;
  float4 v = reinterpret_cast<const float4 *>(x)[i]; // EXPECT-AT
  reinterpret_cast<float4 *>(y)[i] = v;
}
