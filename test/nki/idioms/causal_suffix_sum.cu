// causal_suffix_sum: out[t] = sum of x[t][c] over c >= t (the upper
// triangle), one thread per row.
// Idiom: a loop that starts at the thread's row.  Only ranges that end at
// the row plus a constant are masked reductions: refused with the reason.
// EXPECT: refuse PK5007 "range depends on the row"
#include <cuda_runtime.h>

__global__ void causal_suffix_sum(float *out, const float *x, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0.0f;
    for (int c = t; c < n; ++c)
      s += x[t * n + c];
    out[t] = s; // EXPECT-AT
  }
}
