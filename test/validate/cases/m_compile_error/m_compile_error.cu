#include <cuda_runtime.h>
__global__ void broken(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x
  if (i < n) out[i] = 1.0f;
}
