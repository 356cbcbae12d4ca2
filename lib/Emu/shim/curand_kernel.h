//===- curand_kernel.h - cuRAND device API for the emulator ------*- C++ -*-===//
// Rules: none (emulator runtime)
//
// curand_init and the draws kernels make (curand, uniform, normal, their
// double, pair and quad forms, log-normal, Poisson, skipahead) over every
// state kind, computed by pkemu/rand_device.h: the same numbers as the
// hipRAND shim's for the same (seed, subsequence, offset), not a GPU's.
//
//===----------------------------------------------------------------------===//
#ifndef PKEMU_CURAND_KERNEL_H
#define PKEMU_CURAND_KERNEL_H
#include "curand.h"
#include "pkemu/rand_device.h"

typedef pkemu::rand::DeviceState curandStateXORWOW_t;
typedef pkemu::rand::DeviceState curandStatePhilox4_32_10_t;
typedef pkemu::rand::DeviceState curandStateMRG32k3a_t;
typedef curandStateXORWOW_t curandStateXORWOW;
typedef curandStateXORWOW_t curandState_t;
typedef curandStateXORWOW_t curandState;

PKEMU_HD inline void curand_init(unsigned long long seed,
                                 unsigned long long subsequence,
                                 unsigned long long offset, curandState_t *s) {
  pkemu::rand::dev_init(seed, subsequence, offset, s);
}
PKEMU_HD inline unsigned int curand(curandState_t *s) {
  return pkemu::rand::dev_bits(s);
}
PKEMU_HD inline float curand_uniform(curandState_t *s) {
  return pkemu::rand::dev_uniform(s);
}
PKEMU_HD inline double curand_uniform_double(curandState_t *s) {
  return pkemu::rand::dev_uniform_double(s);
}
PKEMU_HD inline float4 curand_uniform4(curandState_t *s) {
  float a = curand_uniform(s), b = curand_uniform(s), c = curand_uniform(s),
        d = curand_uniform(s);
  return make_float4(a, b, c, d);
}
PKEMU_HD inline float curand_normal(curandState_t *s) {
  return pkemu::rand::dev_normal(s);
}
PKEMU_HD inline double curand_normal_double(curandState_t *s) {
  return pkemu::rand::dev_normal_double(s);
}
PKEMU_HD inline float2 curand_normal2(curandState_t *s) {
  double z0, z1;
  pkemu::rand::dev_pair(s, z0, z1);
  return make_float2((float)z0, (float)z1);
}
PKEMU_HD inline double2 curand_normal2_double(curandState_t *s) {
  double z0, z1;
  pkemu::rand::dev_pair(s, z0, z1);
  return make_double2(z0, z1);
}
PKEMU_HD inline float4 curand_normal4(curandState_t *s) {
  float2 a = curand_normal2(s), b = curand_normal2(s);
  return make_float4(a.x, a.y, b.x, b.y);
}
PKEMU_HD inline float curand_log_normal(curandState_t *s, float mean,
                                        float stddev) {
  return std::exp(mean + stddev * curand_normal(s));
}
PKEMU_HD inline double curand_log_normal_double(curandState_t *s, double mean,
                                                double stddev) {
  return std::exp(mean + stddev * curand_normal_double(s));
}
PKEMU_HD inline unsigned int curand_poisson(curandState_t *s, double lambda) {
  return pkemu::rand::dev_poisson(s, lambda);
}
PKEMU_HD inline void skipahead(unsigned long long n, curandState_t *s) {
  pkemu::rand::dev_skipahead(n, s);
}
#endif
