// map_int_scale: out[i] = 3 * in[i] + 1 on int tensors (the engines compute
// in float32: not exact past 2^24, so integer element arithmetic is not
// lifted).
// EXPECT: refuse PK5007 "integer element values"
#include <cuda_runtime.h>

__global__ void map_int_scale(int *out, const int *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 3 * in[i] + 1;
}
