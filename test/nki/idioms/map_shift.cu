// map_shift: out[i + 1] = in[i] (a store at an offset from the element).
// EXPECT: refuse PK5006 "offset from the element"
#include <cuda_runtime.h>

__global__ void map_shift(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 < n)
    out[i + 1] = in[i];
}
