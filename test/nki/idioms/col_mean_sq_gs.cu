// col_mean_sq_gs: out[c] = (1/rows) * sum_r x[r][c]^2, the mean square of
// each column.
// Idiom: a grid-stride loop over the columns, a per-thread loop over the
// rows with a squared term, and an epilogue dividing by the row count.
// EXPECT: lift
#include <cuda_runtime.h>

__global__ void col_mean_sq_gs(float *out, const float *x, int rows,
                               int cols) {
  for (int c = blockIdx.x * blockDim.x + threadIdx.x; c < cols;
       c += blockDim.x * gridDim.x) {
    float acc = 0.0f;
    for (int r = 0; r < rows; r++) {
      float v = x[r * cols + c];
      acc += v * v;
    }
    out[c] = acc / (float)rows;
  }
}
