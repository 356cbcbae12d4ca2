#include <cuda_runtime.h>
template <int OFF>
__global__ void shift_copy(int *out, const int *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] + (i == 37 ? OFF : 0); // element 37 is wrong on purpose
}
