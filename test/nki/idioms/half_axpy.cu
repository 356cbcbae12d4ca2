// half_axpy: y[i] = alpha * x[i] + y[i] on half-precision vectors, computed
// in float.
// Idiom: __half2float on the loads, __float2half on the store, y in place.
// EXPECT: lift
#include <cuda_fp16.h>
#include <cuda_runtime.h>

__global__ void half_axpy(__half *y, const __half *x, float alpha, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = __float2half(alpha * __half2float(x[i]) + __half2float(y[i]));
}
