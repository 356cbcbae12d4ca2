// map_index_2d: out[r][c] = x[r][c] * c + r over a 2-D grid (a position
// encoding of sorts).
// Idiom: the element's row and column used as values (nisa.iota along
// the free axis, and down the partitions).
// EXPECT: lift
#include <cuda_runtime.h>

__global__ void map_index_2d(float *out, const float *x, int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < rows && c < cols)
    out[r * cols + c] = x[r * cols + c] * (float)c + (float)r;
}
