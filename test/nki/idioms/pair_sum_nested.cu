// pair_sum_nested: out[r] = sum_i sum_j x[r][i] * x[r][j] (the square of the
// row sum), one warp per row, written as two nested loops: the lanes split
// i, every lane walks all of j.
// Idiom: a nested loop inside a column loop.  Its terms depend on two loop
// variables; the row reductions the lifter emits run over one column loop,
// so it must refuse rather than lower x[r][i] at the inner loop's columns.
// EXPECT: refuse PK5009 "another loop's variable"
#include <cuda_runtime.h>

__global__ void pair_sum_nested(float *out, const float *x, int rows, int n) {
  int lane = threadIdx.x & 31;
  int row = blockIdx.x * (blockDim.x / 32) + (threadIdx.x >> 5);
  if (row >= rows)
    return;
  float s = 0.0f;
  for (int i = lane; i < n; i += 32)
    for (int j = 0; j < n; ++j)
      s += x[row * n + i] * x[row * n + j];
  for (int o = 16; o > 0; o >>= 1)
    s += __shfl_xor_sync(0xffffffff, s, o);
  if (lane == 0)
    out[row] = s; // EXPECT-AT
}
