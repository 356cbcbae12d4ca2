// momentum_read_back: m = beta * m + g, then w -= lr * m with m read back
// from memory after its store (as SGD with momentum is often written).
// Idiom: in-place updates of two tensors, the second reading the first's
// new value through the pointer.
// EXPECT: lift
#include <cuda_runtime.h>

__global__ void momentum_read_back(float *w, float *m, const float *g,
                                   int n, float lr, float beta) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  m[i] = beta * m[i] + g[i];
  w[i] -= lr * m[i];
}
