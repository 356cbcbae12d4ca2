// subtract_first_column: out[r][c] = x[r][c] - x[r][0], each row relative
// to its first element, one block per row.
// Idiom: a row map that reads a fixed column of the row as a per-row value.
// EXPECT: lift
#include <cuda_runtime.h>

__global__ void subtract_first_column(float *out, const float *x, int cols) {
  int r = blockIdx.x;
  const float *row = x + (size_t)r * cols;
  float first = row[0];
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    out[(size_t)r * cols + c] = row[c] - first;
}
