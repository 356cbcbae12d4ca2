// CPU reference for rmsnorm_f16 (rows = 6, fixed by the case).
// pk_half, pk_half_to_float and pk_float_to_half come from the harness.
#include <cmath>

void rmsnorm_f16_ref(pk_half *out, const pk_half *in, const float *weight,
                     int cols, float eps) {
  const int rows = 6;
  for (int r = 0; r < rows; ++r) {
    double ss = 0.0;
    for (int c = 0; c < cols; ++c) {
      const double v = pk_half_to_float(in[r * cols + c]);
      ss += v * v;
    }
    const double rstd = 1.0 / std::sqrt(ss / cols + eps);
    for (int c = 0; c < cols; ++c)
      out[r * cols + c] = pk_float_to_half(
          (float)(pk_half_to_float(in[r * cols + c]) * rstd * weight[c]));
  }
}
