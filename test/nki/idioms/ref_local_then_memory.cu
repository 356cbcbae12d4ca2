// ref_local_then_memory: one helper that accumulates into a reference,
// called on a local and then on the output element: y[i] = (x[i] + 1) + 2.
// Each call binds the reference anew (a local's alias, then an address);
// what the first call bound must not stand in the second.
// EXPECT: lift
#include <cuda_runtime.h>

__device__ void bump(float &acc, float v) { acc += v; }

__global__ void ref_local_then_memory(float *y, const float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float t = x[i];
    bump(t, 1.0f);
    y[i] = t;
    bump(y[i], 2.0f);
  }
}
