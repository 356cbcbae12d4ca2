// bias_add_gs2d: out[r][c] = in[r][c] + bias[c] (a row vector broadcast).
// Idiom: a 2-D grid-stride loop: rows stride by blockDim.y * gridDim.y,
// columns by blockDim.x * gridDim.x, so any grid covers the matrix.
// EXPECT: lift
#include <cuda_runtime.h>

__global__ void bias_add_gs2d(float *out, const float *in, const float *bias,
                              int rows, int cols) {
  for (int r = blockIdx.y * blockDim.y + threadIdx.y; r < rows;
       r += blockDim.y * gridDim.y)
    for (int c = blockIdx.x * blockDim.x + threadIdx.x; c < cols;
         c += blockDim.x * gridDim.x)
      out[r * cols + c] = in[r * cols + c] + bias[c];
}
