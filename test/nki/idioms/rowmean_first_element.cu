// rowmean_first_element: out[r] = mean_c x[r][c], one thread per row, the
// sum started from the row's first element and the loop from column 1.
// Idiom: `s = x[r * cols]; for (c = 1; ...) s += ...; out[r] = s / cols`.
// EXPECT: lift
#include <cuda_runtime.h>

__global__ void rowmean_first_element(float *out, const float *x, int rows,
                                      int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    const float *row = x + (size_t)r * cols;
    float s = row[0];
    for (int c = 1; c < cols; c++)
      s += row[c];
    out[r] = s / cols;
  }
}
