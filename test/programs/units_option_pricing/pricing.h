// Option pricing split over translation units in the sample suites' style:
// main.cpp (host only) calls the device code of pricing.cu through plain
// functions and checks it against the CPU reference of pricing_gold.cpp.
#pragma once

struct PricingParams {
  float riskFree;
  float volatility;
};

// pricing.cu: prices n options on the device (device pointers); returns the
// number of blocks launched.
int priceOnDevice(float *d_call, float *d_put, const float *d_spot,
                  const float *d_strike, const float *d_years, int n,
                  PricingParams p);
// pricing.cu: the sum of n device floats, by a block-wide reduction whose
// partial sums go through warp shuffles.
double sumOnDevice(const float *d_values, int n);

// pricing_gold.cpp: the same on the CPU, in double precision.
void priceOnHost(double *call, double *put, const float *spot,
                 const float *strike, const float *years, int n,
                 PricingParams p);
