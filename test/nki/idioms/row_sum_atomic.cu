// row_sum_atomic: out[r] += sum_c in[r][c], with several blocks per row.
// Idiom: a 2-D grid (blockIdx.y = row, blockIdx.x = chunk of columns), a
// warp shuffle reduction, then one atomicAdd per warp into out[row].
// EXPECT: lift
#include <cuda_runtime.h>

__global__ void row_sum_atomic(float *out, const float *in, int rows,
                               int cols) {
  int row = blockIdx.y;
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  float v = (row < rows && c < cols) ? in[row * cols + c] : 0.0f;
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_down_sync(0xffffffff, v, o);
  if ((threadIdx.x & 31) == 0 && row < rows)
    atomicAdd(&out[row], v);
}
