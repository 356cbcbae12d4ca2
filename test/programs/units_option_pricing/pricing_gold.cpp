// The CPU reference of the option pricer, in double precision. Plain C++:
// no CUDA in this translation unit.
#include <cmath>

#include "pricing.h"

// Not pricing.cu's blocksFor: a file-local helper of the same name.
static double blocksFor(double x) { return x < 0 ? 0.0 : x; }

// A host helper with the name and signature of CUDA's device-only umin:
// nvcc compiles this unit as plain C++, where CUDA declares no umin.
static inline unsigned umin(unsigned a, unsigned b) { return a < b ? a : b; }

static double cnd(double d) {
  const double a1 = 0.31938153, a2 = -0.356563782, a3 = 1.781477937,
               a4 = -1.821255978, a5 = 1.330274429;
  const double rsqrt2pi = 0.39894228040143267794;
  double k = 1.0 / (1.0 + 0.2316419 * std::fabs(d));
  double c = rsqrt2pi * std::exp(-0.5 * d * d) *
             (k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5)))));
  return d > 0 ? 1.0 - c : c;
}

void priceOnHost(double *call, double *put, const float *spot,
                 const float *strike, const float *years, int n,
                 PricingParams p) {
  for (int i = 0; i < (int)umin((unsigned)n, 0x7fffffffu); ++i) {
    double s = spot[i], x = strike[i], t = years[i];
    double r = p.riskFree, v = p.volatility;
    double sqrtT = std::sqrt(t);
    double d1 = (std::log(s / x) + (r + 0.5 * v * v) * t) / (v * sqrtT);
    double d2 = d1 - v * sqrtT;
    double expRT = std::exp(-r * t);
    call[i] = blocksFor(s * cnd(d1) - x * expRT * cnd(d2));
    put[i] = blocksFor(x * expRT * (1.0 - cnd(d2)) - s * (1.0 - cnd(d1)));
  }
}
