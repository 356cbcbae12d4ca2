// sumsq_template: *out += sum of x[i]^2 over n elements, a kernel template
// over the element type that the file launches once, with float.
// Idiom: `template <class T> __global__`, a grid-stride loop, a warp
// butterfly and one atomicAdd per warp; the instantiation the host code
// launches (its type deduced from the arguments) is the kernel lifted.
// EXPECT: lift
#include <cuda_runtime.h>

template <class T>
__global__ void sumsq_template(float *out, const T *x, int n) {
  float acc = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    acc += (float)x[i] * (float)x[i];
  for (int o = 16; o > 0; o /= 2)
    acc += __shfl_xor_sync(0xffffffffu, acc, o);
  if ((threadIdx.x & 31) == 0)
    atomicAdd(out, acc);
}

void sumsq(float *out, const float *x, int n) {
  sumsq_template<<<64, 256>>>(out, x, n);
}
