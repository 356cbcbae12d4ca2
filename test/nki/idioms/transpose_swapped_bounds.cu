// transpose_swapped_bounds: meant to be out = in^T, but the store checks
// the input's bounds (x < cols, y + j < rows) at the output's coordinates:
// for a matrix that is not square it skips elements and writes past the
// output's rows.  A near miss of transpose_scale that must be refused.
// EXPECT: refuse PK5009 "under the bounds r < rows, c < cols"
#include <cuda_runtime.h>

#define TILE_DIM 32
#define BLOCK_ROWS 8

__global__ void transpose_swapped_bounds(float *out, const float *in,
                                         int rows, int cols) {
  __shared__ float tile[TILE_DIM][TILE_DIM + 1];
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < cols && y + j < rows)
      tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * cols + x];
  __syncthreads();
  x = blockIdx.y * TILE_DIM + threadIdx.x;
  y = blockIdx.x * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < cols && y + j < rows)
      out[(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j]; // EXPECT-AT
}
