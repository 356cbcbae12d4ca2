// map_leaky_relu: out[i] = v > 0 ? v : 0.01 v (a select that is not a max).
// EXPECT: refuse PK5007 "no select operation"
#include <cuda_runtime.h>

__global__ void map_leaky_relu(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = in[i];
    out[i] = v > 0.0f ? v : 0.01f * v;
  }
}
