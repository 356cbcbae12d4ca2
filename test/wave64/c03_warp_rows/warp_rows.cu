// Class 3, the layout case: one 32-lane warp per row.  The warp id picks the
// row and the lane id the columns, so the data layout depends on 32: only
// 32-lane logical warps keep the meaning.
#include <cuda_runtime.h>

#define WARP_SIZE 32

__global__ void row_sums(const float *__restrict__ in, float *__restrict__ out,
                         int rows, int cols) {
  const int lane = threadIdx.x % WARP_SIZE;
  const int warp = threadIdx.x / WARP_SIZE;
  const int row = blockIdx.x * (blockDim.x / WARP_SIZE) + warp;
  if (row >= rows)
    return;
  float s = 0.0f;
  for (int c = lane; c < cols; c += WARP_SIZE)
    s += in[row * cols + c];
  for (int o = WARP_SIZE / 2; o > 0; o /= 2)
    s += __shfl_xor_sync(0xffffffff, s, o);
  if (lane == 0)
    out[row] = s;
}
