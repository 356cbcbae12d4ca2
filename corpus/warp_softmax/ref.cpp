// CPU reference for softmax_warp_per_row.
#include <cmath>

void softmax_warp_per_row_ref(const float *in, float *out, int rows, int cols) {
  for (int r = 0; r < rows; ++r) {
    const float *x = in + r * cols;
    double m = x[0];
    for (int c = 1; c < cols; ++c)
      m = x[c] > m ? x[c] : m;
    double sum = 0.0;
    for (int c = 0; c < cols; ++c)
      sum += std::exp(x[c] - m);
    for (int c = 0; c < cols; ++c)
      out[r * cols + c] = (float)(std::exp(x[c] - m) / sum);
  }
}
