// CPU reference for bias_gelu.
#include <cmath>

void bias_gelu_ref(float *out, const float *in, const float *bias, int rows,
                   int cols) {
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      const double x = (double)in[r * cols + c] + (double)bias[c];
      const double inner = 0.7978845608028654 * (x + 0.044715 * x * x * x);
      out[r * cols + c] = (float)(0.5 * x * (1.0 + std::tanh(inner)));
    }
}
