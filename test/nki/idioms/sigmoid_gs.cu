// sigmoid_gs: y[i] = 1 / (1 + exp(-x[i])) over n floats.
// Idiom: grid-stride loop with size_t indices (casts of blockDim.x before
// the multiplication, as for tensors past 2^31 elements).
// EXPECT: lift
#include <cuda_runtime.h>
#include <stddef.h>

__global__ void sigmoid_gs(float *y, const float *x, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)blockDim.x * gridDim.x) {
    y[i] = 1.0f / (1.0f + expf(-x[i]));
  }
}
