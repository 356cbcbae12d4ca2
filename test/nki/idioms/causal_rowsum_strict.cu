// causal_rowsum_strict: out[t] = sum of x[t][c] over c < t (the strictly
// lower triangle; row 0 sums nothing), one thread per row.
// Idiom: an exclusive causal range `c < t`, whose first row is empty.
// EXPECT: lift
#include <cuda_runtime.h>

__global__ void causal_rowsum_strict(float *out, const float *x, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0.0f;
    for (int c = 0; c < t; ++c)
      s += x[t * n + c];
    out[t] = s;
  }
}
