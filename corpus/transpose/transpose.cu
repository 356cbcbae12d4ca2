// Out-of-place matrix transpose through a padded shared-memory tile
// (TILE_DIM x TILE_DIM+1 avoids bank conflicts on the column reads).
// Each 32x8 block moves a 32x32 tile; edges are guarded.
#include <cuda_runtime.h>

#define TILE_DIM 32
#define BLOCK_ROWS 8

// in is rows x cols (row-major); out is cols x rows.
__global__ void transpose_padded(float *__restrict__ out,
                                 const float *__restrict__ in, int rows,
                                 int cols) {
  __shared__ float tile[TILE_DIM][TILE_DIM + 1];

  int x = blockIdx.x * TILE_DIM + threadIdx.x; // column in `in`
  int y = blockIdx.y * TILE_DIM + threadIdx.y; // row in `in`
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < cols && y + j < rows)
      tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(y + j) * cols + x];
  __syncthreads();

  x = blockIdx.y * TILE_DIM + threadIdx.x; // column in `out`
  y = blockIdx.x * TILE_DIM + threadIdx.y; // row in `out`
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < rows && y + j < cols)
      out[(size_t)(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}
