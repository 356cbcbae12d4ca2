// row_norm_2d_threads: y[r] = sqrt(sum_c x[r][c]^2), one thread per row in
// 2-D blocks (the rows of a block numbered threadIdx.y * blockDim.x +
// threadIdx.x).
// Idiom: a flattened 2-D thread index, the row's squares summed in a
// per-thread loop.
// EXPECT: lift
#include <cuda_runtime.h>

__global__ void row_norm_2d_threads(float *y, const float *x, int rows,
                                    int cols) {
  int r = blockIdx.x * (blockDim.x * blockDim.y) + threadIdx.y * blockDim.x +
          threadIdx.x;
  if (r >= rows)
    return;
  float s = 0.0f;
  for (int c = 0; c < cols; ++c)
    s += x[r * cols + c] * x[r * cols + c];
  y[r] = sqrtf(s);
}
