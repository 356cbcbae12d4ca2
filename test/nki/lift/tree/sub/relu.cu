#include <cuda_runtime.h>

__global__ void relu6(float *out, const float *in, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = fminf(fmaxf(in[i], 0.0f), 6.0f);
}
