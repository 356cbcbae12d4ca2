// map_row_div: out[r][c] = in[r][c] * scale[r] over a flat index, the row
// recovered with `idx / cols` (a column vector broadcast along the rows).
// EXPECT: lift
#include <cuda_runtime.h>

__global__ void map_row_div(float *out, const float *in, const float *scale,
                            int rows, int cols) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  int total = rows * cols;
  if (idx < total) {
    int row = idx / cols;
    out[idx] = in[idx] * scale[row];
  }
}
