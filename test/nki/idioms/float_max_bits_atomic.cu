// float_max_bits_atomic: the float atomicMax idiom through the bits of a
// float (`atomicMax((int *)out, __float_as_int(v))`), which orders the
// floats only when none is negative: must be refused with that reason.
// EXPECT: refuse PK5007 "__float_as_int"
#include <cuda_runtime.h>

__global__ void float_max_bits_atomic(float *out, const float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicMax((int *)out, __float_as_int(x[i])); // EXPECT-AT
}
