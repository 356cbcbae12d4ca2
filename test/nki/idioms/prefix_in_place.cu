// prefix_in_place: every lane adds x[r][i] into all its columns of out[r]
// for each i (out[r][c] += sum_i x[r][i] for the lane's columns c), one warp
// per row, a loop around the column loop.
// Idiom: accumulation into global memory inside nested loops.  The stored
// value depends on the outer loop's variable, which the lifted row map does
// not carry: refused.
// EXPECT: refuse PK5009 "not the column"
#include <cuda_runtime.h>

__global__ void prefix_in_place(float *out, const float *x, int rows, int n) {
  int lane = threadIdx.x & 31;
  int row = blockIdx.x * (blockDim.x / 32) + (threadIdx.x >> 5);
  if (row >= rows)
    return;
  for (int i = 0; i < n; ++i)
    for (int c = lane; c < n; c += 32)
      out[row * n + c] += x[row * n + i]; // EXPECT-AT
}
