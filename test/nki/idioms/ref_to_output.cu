// ref_to_output: y[i] = a * x[i] + 1 + x[i] through a reference to the
// output element and a helper that accumulates into a reference.
// Idiom: `float &o = y[i];`, `void bump(float &acc, float v)` given `o` and
// `y[i]`.
// EXPECT: lift
#include <cuda_runtime.h>

__device__ void bump(float &acc, float v) { acc += v; }

__global__ void ref_to_output(float *y, const float *x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float &o = y[i];
    o = a * x[i];
    bump(o, 1.0f);
    bump(y[i], x[i]);
  }
}
