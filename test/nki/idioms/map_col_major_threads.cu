// map_col_major_threads: out[r][c] = in[r][c] * w[c] with threadIdx.x
// walking the rows and threadIdx.y the columns (the transposed thread
// mapping: the contiguous coordinate is y).
// EXPECT: lift
#include <cuda_runtime.h>

__global__ void map_col_major_threads(float *out, const float *in,
                                      const float *w, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  int c = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < rows && c < cols)
    out[r * cols + c] = in[r * cols + c] * w[c];
}
