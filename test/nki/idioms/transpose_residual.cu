// transpose_residual: out[c][r] = res[c][r] + scale[r] * in[r][c] (a
// transposed projection added to a residual stream already in the output's
// layout, a scale per input row).
// Idiom: an unpadded 16 x 16 tile, one element per thread, the residual
// read at the output's element and the scale at its column.
// EXPECT: lift
#include <cuda_runtime.h>

__global__ void transpose_residual(float *out, const float *in,
                                   const float *res, const float *scale,
                                   int rows, int cols) {
  __shared__ float tile[16][16];
  int col = blockIdx.x * 16 + threadIdx.x;
  int row = blockIdx.y * 16 + threadIdx.y;
  if (row < rows && col < cols)
    tile[threadIdx.y][threadIdx.x] = in[row * cols + col];
  __syncthreads();
  int orow = blockIdx.x * 16 + threadIdx.y;
  int ocol = blockIdx.y * 16 + threadIdx.x;
  if (orow < cols && ocol < rows)
    out[orow * rows + ocol] =
        res[orow * rows + ocol] + scale[ocol] * tile[threadIdx.x][threadIdx.y];
}
