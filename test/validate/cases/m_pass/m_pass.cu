#include <cuda_runtime.h>
#include "scale.cuh"
__global__ void scale_add(float *y, const float *x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = scale(x[i], a) + y[i];
}
