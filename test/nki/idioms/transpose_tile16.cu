// transpose_tile16: out = alpha * in^T + beta (in is rows x cols, out is
// cols x rows).
// Idiom: an unpadded 16 x 16 shared tile and 16 x 16 threads, one element
// per thread (no row loop), threadIdx aliases, the bounds as nested ifs in
// the other order, an affine epilogue on the store.
// EXPECT: lift
#include <cuda_runtime.h>

__global__ void transpose_tile16(float *out, const float *in, float alpha,
                                 float beta, int rows, int cols) {
  __shared__ float tile[16][16];
  const int tx = threadIdx.x, ty = threadIdx.y;
  int col = blockIdx.x * 16 + tx;
  int row = blockIdx.y * 16 + ty;
  if (row < rows)
    if (col < cols)
      tile[ty][tx] = in[row * cols + col];
  __syncthreads();
  int orow = blockIdx.x * 16 + ty; // row of out = column of in
  int ocol = blockIdx.y * 16 + tx; // column of out = row of in
  if (orow < cols && ocol < rows)
    out[orow * rows + ocol] = alpha * tile[tx][ty] + beta;
}
