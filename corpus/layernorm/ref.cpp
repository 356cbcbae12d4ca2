// CPU reference for layernorm_fwd (rows = 8, fixed by the case).
#include <cmath>

void layernorm_fwd_ref(const float *x, const float *gamma, const float *beta,
                       float *y, float *mean, float *rstd, int cols, float eps) {
  const int rows = 8;
  for (int r = 0; r < rows; ++r) {
    const float *xr = x + r * cols;
    double mu = 0.0;
    for (int c = 0; c < cols; ++c)
      mu += xr[c];
    mu /= cols;
    double var = 0.0;
    for (int c = 0; c < cols; ++c)
      var += (xr[c] - mu) * (xr[c] - mu);
    var /= cols;
    const double rs = 1.0 / std::sqrt(var + eps);
    for (int c = 0; c < cols; ++c)
      y[r * cols + c] = (float)((xr[c] - mu) * rs * gamma[c] + beta[c]);
    mean[r] = (float)mu;
    rstd[r] = (float)rs;
  }
}
