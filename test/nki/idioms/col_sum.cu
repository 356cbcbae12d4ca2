// col_sum: out[c] = sum_r in[r][c], the sum of each column.
// Idiom: one thread per column, each thread walks the rows of its column
// (coalesced across the warp), no shared memory.
// EXPECT: lift
#include <cuda_runtime.h>

__global__ void col_sum(float *out, const float *in, int rows, int cols) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (col < cols) {
    float s = 0.0f;
    for (int r = 0; r < rows; ++r)
      s += in[r * cols + col];
    out[col] = s;
  }
}
