#include <cuda_runtime.h>
#include <cuda_bf16.h>
// Paired conversions ROCm 6.3 does not declare, spelled through the ones it
// has; each argument is still evaluated once.
__global__ void pack(const float *a, __nv_bfloat162 *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = __floats2bfloat162_rn(a[i], a[i + n]);
    out[i + n] = __float2bfloat162_rn(a[i++]);
  }
}
template <typename T> __device__ __nv_bfloat162 splat(T v) {
  return __float2bfloat162_rn(static_cast<float>(v));
}
