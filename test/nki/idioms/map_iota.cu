// map_iota: out[i] = i * in[i]: the index itself is a value.
// EXPECT: refuse PK5007 "index is used as a value"
#include <cuda_runtime.h>

__global__ void map_iota(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = (float)i * in[i];
}
