// The cumulative normal distribution of the CPU reference, in double
// precision: a header only pricing_gold.cpp (plain C++, no CUDA) includes,
// which the port must carry along with it.
#pragma once
#include <cmath>

static inline double cnd(double d) {
  const double a1 = 0.31938153, a2 = -0.356563782, a3 = 1.781477937,
               a4 = -1.821255978, a5 = 1.330274429;
  const double rsqrt2pi = 0.39894228040143267794;
  double k = 1.0 / (1.0 + 0.2316419 * std::fabs(d));
  double c = rsqrt2pi * std::exp(-0.5 * d * d) *
             (k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5)))));
  return d > 0 ? 1.0 - c : c;
}
