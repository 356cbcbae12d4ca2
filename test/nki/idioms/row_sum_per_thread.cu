// row_sum_per_thread: out[r] = sum_c x[r][c] with one thread per row, each
// walking its row (uncoalesced, but common in first versions).
// EXPECT: lift
#include <cuda_runtime.h>

__global__ void row_sum_per_thread(float *out, const float *x, int rows,
                                   int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    float s = 0.0f;
    for (int c = 0; c < cols; ++c)
      s += x[r * cols + c];
    out[r] = s;
  }
}
