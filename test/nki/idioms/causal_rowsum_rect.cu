// causal_rowsum_rect: out[t] = sum of x[t][c] over c <= t for the rows of
// a (rows, cols) matrix, one thread per row.
// Idiom: a causal range on a matrix that need not be square.  Where rows
// > cols the kernel's range runs past its row into the next one: the
// output asserts rows <= cols (a case below fires it).
// EXPECT: lift
#include <cuda_runtime.h>

__global__ void causal_rowsum_rect(float *out, const float *x, int rows,
                                   int cols) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= rows)
    return;
  float s = 0.0f;
  for (int c = 0; c <= t; ++c)
    s += x[t * cols + c];
  out[t] = s;
}
