// causal_rowmax_strict: out[t] = max of x[t][c] over c < t, starting from
// -FLT_MAX (row 0 is empty and gets the start).
// Idiom: an exclusive causal range under a max.  The tile program's masked
// terms take the max's identity, which is the start only by chance:
// refused, with the reason, never lifted with row 0 wrong.
// EXPECT: refuse PK5007 "k >= 1 for a max or min"
#include <cuda_runtime.h>
#include <float.h>

__global__ void causal_rowmax_strict(float *out, const float *x, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float m = -1.0e30f;
    for (int c = 0; c < t; ++c)
      m = fmaxf(m, x[t * n + c]);
    out[t] = m; // EXPECT-AT
  }
}
