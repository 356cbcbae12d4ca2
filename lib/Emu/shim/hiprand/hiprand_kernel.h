//===- hiprand/hiprand_kernel.h - hipRAND device API for the emulator ----===//
// Rules: none (emulator runtime)
//
// hiprand_init and the draws kernels make over every state kind, computed by
// pkemu/rand_device.h: the same numbers as the cuRAND shim's for the same
// (seed, subsequence, offset), so an original and its port compare.
//
//===----------------------------------------------------------------------===//
#ifndef PKEMU_HIPRAND_KERNEL_H
#define PKEMU_HIPRAND_KERNEL_H
#include "../pkemu/rand_device.h"
#include "hiprand.h"

typedef pkemu::rand::DeviceState hiprandStateXORWOW_t;
typedef pkemu::rand::DeviceState hiprandStatePhilox4_32_10_t;
typedef pkemu::rand::DeviceState hiprandStateMRG32k3a_t;
typedef hiprandStateXORWOW_t hiprandStateXORWOW;
typedef hiprandStateXORWOW_t hiprandState_t;
typedef hiprandStateXORWOW_t hiprandState;

PKEMU_HD inline void hiprand_init(unsigned long long seed,
                                  unsigned long long subsequence,
                                  unsigned long long offset,
                                  hiprandState_t *s) {
  pkemu::rand::dev_init(seed, subsequence, offset, s);
}
PKEMU_HD inline unsigned int hiprand(hiprandState_t *s) {
  return pkemu::rand::dev_bits(s);
}
PKEMU_HD inline float hiprand_uniform(hiprandState_t *s) {
  return pkemu::rand::dev_uniform(s);
}
PKEMU_HD inline double hiprand_uniform_double(hiprandState_t *s) {
  return pkemu::rand::dev_uniform_double(s);
}
PKEMU_HD inline float4 hiprand_uniform4(hiprandState_t *s) {
  float a = hiprand_uniform(s), b = hiprand_uniform(s), c = hiprand_uniform(s),
        d = hiprand_uniform(s);
  return make_float4(a, b, c, d);
}
PKEMU_HD inline float hiprand_normal(hiprandState_t *s) {
  return pkemu::rand::dev_normal(s);
}
PKEMU_HD inline double hiprand_normal_double(hiprandState_t *s) {
  return pkemu::rand::dev_normal_double(s);
}
PKEMU_HD inline float2 hiprand_normal2(hiprandState_t *s) {
  double z0, z1;
  pkemu::rand::dev_pair(s, z0, z1);
  return make_float2((float)z0, (float)z1);
}
PKEMU_HD inline double2 hiprand_normal2_double(hiprandState_t *s) {
  double z0, z1;
  pkemu::rand::dev_pair(s, z0, z1);
  return make_double2(z0, z1);
}
PKEMU_HD inline float4 hiprand_normal4(hiprandState_t *s) {
  float2 a = hiprand_normal2(s), b = hiprand_normal2(s);
  return make_float4(a.x, a.y, b.x, b.y);
}
PKEMU_HD inline float hiprand_log_normal(hiprandState_t *s, float mean,
                                         float stddev) {
  return std::exp(mean + stddev * hiprand_normal(s));
}
PKEMU_HD inline double hiprand_log_normal_double(hiprandState_t *s,
                                                 double mean, double stddev) {
  return std::exp(mean + stddev * hiprand_normal_double(s));
}
PKEMU_HD inline unsigned int hiprand_poisson(hiprandState_t *s,
                                             double lambda) {
  return pkemu::rand::dev_poisson(s, lambda);
}
PKEMU_HD inline void skipahead(unsigned long long n, hiprandState_t *s) {
  pkemu::rand::dev_skipahead(n, s);
}
#endif
