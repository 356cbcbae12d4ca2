// row_umax_atomic: hi[r] = max(hi[r], max_c x[r][c]) over uint32 values
// (hash keys, bit patterns, counters above 2^31).
// Idiom: a 2-D grid, blockIdx.y the row and the blocks along x the
// columns; each thread in range does one unsigned atomicMax into its row.
// EXPECT: lift
#include <cuda_runtime.h>

__global__ void row_umax_atomic(unsigned int *hi, const unsigned int *x,
                                int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y;
  if (c >= cols || r >= rows)
    return;
  atomicMax(&hi[r], x[r * cols + c]);
}
