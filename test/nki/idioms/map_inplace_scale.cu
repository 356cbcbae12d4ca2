// map_inplace_scale: x[i] = x[i] * s + 1 over n floats, in place.
// Idiom: an in/out tensor updated by each thread at its own element (a
// read before the write), the guard written as `i >= n` with an early
// return and unsigned indices.
// EXPECT: lift
#include <cuda_runtime.h>

__global__ void map_inplace_scale(float *x, float s, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float v = x[i];
  x[i] = v * s + 1.0f;
}
