// causal_mask_fill: out[r][c] = x[r][c] where c <= r, else -inf (the
// attention scores' causal mask before a softmax), one block per row.
// Idiom: a select between the element and a constant on the column
// against the row, the constant in the true branch.
// EXPECT: lift
#include <cuda_runtime.h>
#include <math.h>

__global__ void causal_mask_fill(float *out, const float *x, int T) {
  int r = blockIdx.x;
  for (int c = threadIdx.x; c < T; c += blockDim.x)
    out[r * T + c] = c > r ? -INFINITY : x[r * T + c];
}
