// label_compare_values: out[i] = (a[i] == b[i]) ? 1 : 0 for two int32
// label tensors.
// Idiom: a comparison of two loaded integers as a value.  The engines
// compare in float32, where integers beyond 2^24 collide: refused, never
// lifted with large labels equal.
// EXPECT: refuse PK5007 "comparison of integers"
#include <cuda_runtime.h>

__global__ void label_compare_values(float *out, const int *a, const int *b,
                                     int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = a[i] == b[i] ? 1.0f : 0.0f; // EXPECT-AT
}
