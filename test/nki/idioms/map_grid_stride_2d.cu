// map_grid_stride_2d: out[r][c] = a[r][c] - b[r], with grid-stride loops
// over both coordinates (the launch need not cover the matrix).
// EXPECT: lift
#include <cuda_runtime.h>

__global__ void map_grid_stride_2d(float *out, const float *a, const float *b,
                                   int rows, int cols) {
  for (int r = blockIdx.y * blockDim.y + threadIdx.y; r < rows;
       r += blockDim.y * gridDim.y)
    for (int c = blockIdx.x * blockDim.x + threadIdx.x; c < cols;
         c += blockDim.x * gridDim.x)
      out[r * cols + c] = a[r * cols + c] - b[r];
}
