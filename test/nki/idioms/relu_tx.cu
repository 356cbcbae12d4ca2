// relu_tx: out[i] = max(in[i], 0) over n floats (ReLU).
// Idiom: `int tx = threadIdx.x;` and a non-const index built up by
// reassignment, a guarded 1-D map with a ternary select.
// EXPECT: lift
#include <cuda_runtime.h>

__global__ void relu_tx(float *out, const float *in, int n) {
  int tx = threadIdx.x;
  int i = blockIdx.x;
  i = i * blockDim.x;
  i += tx;
  if (i < n) {
    float v = in[i];
    v = v > 0.0f ? v : 0.0f;
    out[i] = v;
  }
}
