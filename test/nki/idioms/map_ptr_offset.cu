// map_ptr_offset: out = 2 * in + 1 through pointers advanced to the block's
// first element (`const float *src = in + blockIdx.x * blockDim.x`), the
// guard written `i <= n - 1`, two outputs under the same guard.
// EXPECT: lift
#include <cuda_runtime.h>

__global__ void map_ptr_offset(float *out, float *twice, const float *in,
                               int n) {
  const float *src = in + blockIdx.x * blockDim.x;
  float *dst = out + blockIdx.x * blockDim.x;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n - 1) {
    float v = src[threadIdx.x];
    dst[threadIdx.x] = 2.0f * v + 1.0f;
    twice[i] = v + v;
  }
}
