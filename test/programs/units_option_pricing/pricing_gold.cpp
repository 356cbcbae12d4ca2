// The CPU reference of the option pricer, in double precision. Plain C++:
// no CUDA in this translation unit.
#include <cmath>

#include "gold_math.h"
#include "pricing.h"

// Not pricing.cu's blocksFor: a file-local helper of the same name.
static double blocksFor(double x) { return x < 0 ? 0.0 : x; }

// A host helper with the name and signature of CUDA's device-only umin:
// nvcc compiles this unit as plain C++, where CUDA declares no umin.
static inline unsigned umin(unsigned a, unsigned b) { return a < b ? a : b; }


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
