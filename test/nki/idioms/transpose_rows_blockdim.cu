// transpose_rows_blockdim: out = in^T (in is rows x cols, out is cols x
// rows).
// Idiom: the tile's row loop steps by blockDim.y (any block of 32 x R
// threads with R dividing 32), the column bound hoisted out of the loop,
// an unpadded 32 x 32 tile.
// EXPECT: lift
#include <cuda_runtime.h>

__global__ void transpose_rows_blockdim(float *out, const float *in,
                                        int rows, int cols) {
  __shared__ float tile[32][32];
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 32 + threadIdx.y;
  if (x < cols)
    for (int j = 0; j < 32; j += blockDim.y)
      if (y + j < rows)
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * cols + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  if (x < rows)
    for (int j = 0; j < 32; j += blockDim.y)
      if (y + j < cols)
        out[(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}
