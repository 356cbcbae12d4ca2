// map_mod_ragged: out[i] = in[i] + bias[i % cols] over n elements, n not
// known to be a multiple of cols (no rows-by-columns view).
// EXPECT: refuse PK5006 "does not divide its extent"
#include <cuda_runtime.h>

__global__ void map_mod_ragged(float *out, const float *in, const float *bias,
                               int n, int cols) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] + bias[i % cols];
}
