#include <cuda_runtime.h>
__global__ void checked_copy(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i == 5)
    __trap();
  if (i < n)
    out[i] = in[i];
}
