// y = a * x + y over n elements, grid-stride loop.
#include <cuda_runtime.h>

__global__ void saxpy(float *__restrict__ y, const float *__restrict__ x,
                      float a, int n) {
  const int stride = blockDim.x * gridDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    y[i] = a * x[i] + y[i];
}
