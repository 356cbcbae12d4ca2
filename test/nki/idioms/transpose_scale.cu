// transpose_scale: out = scale * in^T (in is rows x cols, out is cols x rows).
// Idiom: a 32 x 33 padded shared tile (no bank conflicts), 32 x 8 threads,
// each thread copying four rows of the tile, a scale on the store.
// EXPECT: lift
#include <cuda_runtime.h>

#define TILE_DIM 32
#define BLOCK_ROWS 8

__global__ void transpose_scale(float *out, const float *in, float scale,
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
    if (x < rows && y + j < cols)
      out[(y + j) * rows + x] = scale * tile[threadIdx.x][threadIdx.y + j];
}
