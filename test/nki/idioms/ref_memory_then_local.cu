// ref_memory_then_local: the same helper called on the output element and
// then on a local: y[i] = x[i] + 2, z[i] = x[i] * 2 + 1 (the second call
// adds to the local only: the address the first call bound must not stand).
// EXPECT: lift
#include <cuda_runtime.h>

__device__ void bump(float &acc, float v) { acc += v; }

__global__ void ref_memory_then_local(float *y, float *z, const float *x,
                                      int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i] = x[i];
    bump(y[i], 2.0f);
    float t = x[i] * 2.0f;
    bump(t, 1.0f);
    z[i] = t;
  }
}
