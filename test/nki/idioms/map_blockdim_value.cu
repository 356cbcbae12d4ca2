// map_blockdim_value: out[i] = in[i] * blockDim.x: the value depends on the
// launch's block size, which the tile program must not fix.
// EXPECT: refuse PK5007 "depend on the block size"
#include <cuda_runtime.h>

__global__ void map_blockdim_value(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] * (float)blockDim.x;
}
