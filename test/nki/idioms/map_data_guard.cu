// map_data_guard: out[i] = in[i] only where in[i] > 0 (elsewhere out keeps
// its contents): a store under a condition on the data.
// EXPECT: refuse PK5007 "condition"
#include <cuda_runtime.h>

__global__ void map_data_guard(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && in[i] > 0.0f)
    out[i] = in[i];
}
