// swap_pairs_float2: out[i] = (in[i].y, in[i].x) for n float2 values.
// Idiom: a record's fields permuted (a complex conjugate's swap, an (x, y)
// to (y, x) point): each stored field reads another loaded field.
// EXPECT: lift
#include <cuda_runtime.h>

__global__ void swap_pairs_float2(float2 *out, const float2 *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float2 v = in[i];
    out[i] = make_float2(v.y, v.x);
  }
}
