// map_reverse: out[n - 1 - i] = in[i] (a reversal: no coordinate walks the
// output forward, which no tile copy expresses).
// EXPECT: refuse PK5006 "backwards"
#include <cuda_runtime.h>

__global__ void map_reverse(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[n - 1 - i] = in[i];
}
