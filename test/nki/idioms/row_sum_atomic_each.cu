// row_sum_atomic_each: out[r] += sum_c x[r][c], one atomicAdd per element.
// Idiom: a 2-D grid (blockIdx.y = row, blockIdx.x = chunk of columns) and no
// block reduction at all: every thread in range adds its element into
// out[row] through a pointer offset.
// EXPECT: lift
#include <cuda_runtime.h>

__global__ void row_sum_atomic_each(float *out, const float *x, int rows,
                                    int cols) {
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  const int r = blockIdx.y;
  if (c < cols && r < rows)
    atomicAdd(out + r, x[(size_t)r * cols + c] * 0.5f);
}
