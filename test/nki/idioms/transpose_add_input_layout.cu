// transpose_add_input_layout: out = (in + other)^T written with `other`
// read at the output's index transposed back (other[ocol * cols + orow]):
// the staged tile transposes in, but other would need a transpose of its
// own.  Refused at the read, naming the indices that are lifted.
// EXPECT: refuse PK5009 "not the output element's row c, column r"
#include <cuda_runtime.h>

__global__ void transpose_add_input_layout(float *out, const float *in,
                                           const float *other, int rows,
                                           int cols) {
  __shared__ float tile[16][17];
  int col = blockIdx.x * 16 + threadIdx.x;
  int row = blockIdx.y * 16 + threadIdx.y;
  if (row < rows && col < cols)
    tile[threadIdx.y][threadIdx.x] = in[row * cols + col];
  __syncthreads();
  int orow = blockIdx.x * 16 + threadIdx.y;
  int ocol = blockIdx.y * 16 + threadIdx.x;
  if (orow < cols && ocol < rows)
    out[orow * rows + ocol] =
        tile[threadIdx.x][threadIdx.y] + other[ocol * cols + orow]; // EXPECT-AT
}
