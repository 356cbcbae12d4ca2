// scale_shift_2d: out[r][c] = in[r][c] * scale - shift[r] (a per-row scalar
// broadcast over the columns).
// Idiom: 2-D blocks (32 x 8), row from y and column from x, both bounds in
// one condition around the store.
// EXPECT: lift
#include <cuda_runtime.h>

__global__ void scale_shift_2d(float *out, const float *in, const float *shift,
                               float scale, int rows, int cols) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < rows && col < cols) {
    out[row * cols + col] = in[row * cols + col] * scale - shift[row];
  }
}
