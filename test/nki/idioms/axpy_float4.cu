// axpy_float4: y = a * x + y in place over n / 4 float4 elements, the
// vector parameters typed float4 and the result built with make_float4.
// Idiom: float4 pointers as parameters, make_float4, a whole-vector store.
// EXPECT: lift
#include <cuda_runtime.h>

__global__ void axpy_float4(float4 *y, const float4 *x, float a, int n4) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) {
    const float4 xv = x[i];
    float4 yv = y[i];
    y[i] = make_float4(a * xv.x + yv.x, a * xv.y + yv.y, a * xv.z + yv.z,
                       a * xv.w + yv.w);
  }
}
