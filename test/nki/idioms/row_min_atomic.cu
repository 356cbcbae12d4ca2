// row_min_atomic: lo[r] = min(lo[r], min_c x[r][c]) over int32 values.
// Idiom: a 2-D grid, blockIdx.y the row and the blocks along x the
// columns; each thread in range does one atomicMin into its row.
// EXPECT: lift
#include <cuda_runtime.h>

__global__ void row_min_atomic(int *lo, const int *x, int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y;
  if (c >= cols || r >= rows)
    return;
  atomicMin(&lo[r], x[r * cols + c]);
}
