// transpose_bias_rows: out[c][r] = in[r][c] + bias[c] (in is rows x cols,
// out is cols x rows, one bias per output row).
// Idiom: a padded 32 x 33 tile, 32 x 8 threads with four rows each, the
// bias read at the output's row in the store.
// EXPECT: lift
#include <cuda_runtime.h>
#define TILE 32
#define ROWS 8

__global__ void transpose_bias_rows(float *out, const float *in,
                                    const float *bias, int rows, int cols) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    if (x < cols && y + j < rows)
      tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * cols + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    if (x < rows && y + j < cols)
      out[(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j] + bias[y + j];
}
