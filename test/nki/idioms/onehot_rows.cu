// onehot_rows: out[r][c] = (c == label[r]) ? 0 : 1 for a 2-D grid of
// rows and columns (a mask of the other classes).
// Idiom: the column coordinate compared with a per-row integer, the
// constants the other way round.
// EXPECT: lift
#include <cuda_runtime.h>

__global__ void onehot_rows(float *out, const int *label, int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (c < cols && r < rows)
    out[r * cols + c] = c == label[r] ? 0.0f : 1.0f;
}
