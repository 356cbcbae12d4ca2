//===- rand_device.h - the device API behind curand_kernel.h and ----------===//
//                      hiprand/hiprand_kernel.h
// Rules: none (emulator runtime)
//
// cuRAND's and hipRAND's device API for the emulator: a per-thread state
// initialised with (seed, subsequence, offset) and drawn from in kernels.
// Every state kind (XORWOW, Philox4_32_10, MRG32k3a) is one counter-based
// generator: element i of subsequence s of a seed is SplitMix64 of (seed,
// s, i), the mixing of pkemu/rand.h.  The numbers are not a GPU's, but the
// original program and its port draw the same ones for the same
// (seed, subsequence, offset), so their outputs compare, and distinct
// subsequences are independent streams as the libraries promise.  Uniform
// values lie in (0, 1]; normal values come from Box-Muller on pairs, the
// second kept for the next call as the libraries do (normal2/normal4 draw
// whole pairs).  Poisson draws use Knuth's product of uniforms below a mean
// of 64 and a rounded normal above.
//
//===----------------------------------------------------------------------===//
#pragma once
#include "rand.h"
#include "vector_types.h"
#include <cmath>
#include <cstdint>

namespace pkemu {
namespace rand {

struct DeviceState {
  std::uint64_t key;     ///< the seed and subsequence, mixed
  std::uint64_t counter; ///< the next element's index
  int has_normal;        ///< a second Box-Muller value is kept
  float normal;
  int has_normal_double;
  double normal_double;
};

PKEMU_HD inline void dev_init(unsigned long long seed,
                              unsigned long long subsequence,
                              unsigned long long offset, DeviceState *s) {
  s->key = mix(mix(seed) ^ mix(subsequence ^ 0x5851f42d4c957f2dull));
  s->counter = offset;
  s->has_normal = 0;
  s->has_normal_double = 0;
  s->normal = 0.0f;
  s->normal_double = 0.0;
}
PKEMU_HD inline std::uint64_t dev_next(DeviceState *s) {
  return mix(s->key ^ mix(s->counter++));
}
PKEMU_HD inline unsigned dev_bits(DeviceState *s) {
  return (unsigned)(dev_next(s) >> 32);
}
PKEMU_HD inline float dev_uniform(DeviceState *s) {
  return uniform(dev_next(s));
}
PKEMU_HD inline double dev_uniform_double(DeviceState *s) {
  return uniform_double(dev_next(s));
}
/// One Box-Muller pair from two uniforms.
PKEMU_HD inline void dev_pair(DeviceState *s, double &z0, double &z1) {
  double u1 = dev_uniform_double(s), u2 = dev_uniform_double(s);
  double r = std::sqrt(-2.0 * std::log(u1)), t = 6.283185307179586 * u2;
  z0 = r * std::cos(t);
  z1 = r * std::sin(t);
}
/// The next normal value of type T: the kept second value of a pair, or a
/// new pair whose second value is kept.  float and double keep apart.
template <class T> PKEMU_HD inline T dev_normal(DeviceState *s) {
  int &has = sizeof(T) == 4 ? s->has_normal : s->has_normal_double;
  if (has) {
    has = 0;
    return sizeof(T) == 4 ? (T)s->normal : (T)s->normal_double;
  }
  double z0, z1;
  dev_pair(s, z0, z1);
  has = 1;
  if (sizeof(T) == 4)
    s->normal = (float)z1;
  else
    s->normal_double = z1;
  return (T)z0;
}
PKEMU_HD inline unsigned dev_poisson(DeviceState *s, double lambda) {
  if (lambda <= 0)
    return 0;
  if (lambda < 64) {
    double l = std::exp(-lambda), p = 1.0;
    unsigned k = 0;
    do {
      ++k;
      p *= dev_uniform_double(s);
    } while (p > l);
    return k - 1;
  }
  double v = std::floor(lambda + std::sqrt(lambda) * dev_normal<double>(s) + 0.5);
  return v < 0 ? 0u : (unsigned)v;
}
PKEMU_HD inline void dev_skipahead(unsigned long long n, DeviceState *s) {
  s->counter += n;
}

} // namespace rand
} // namespace pkemu

/// The device API of one library: PKEMU_RAND_DEVICE_API(curand, curandState_t)
/// defines curand_init, curand, curand_uniform, ..., skipahead over State.
/// cuRAND and hipRAND spell the same calls with their own prefix.
#define PKEMU_RAND_DEVICE_API(P, State)                                        \
  PKEMU_HD inline void P##_init(unsigned long long seed,                       \
                                unsigned long long subsequence,                \
                                unsigned long long offset, State *s) {         \
    ::pkemu::rand::dev_init(seed, subsequence, offset, s);                     \
  }                                                                            \
  PKEMU_HD inline unsigned int P(State *s) {                                   \
    return ::pkemu::rand::dev_bits(s);                                         \
  }                                                                            \
  PKEMU_HD inline float P##_uniform(State *s) {                                \
    return ::pkemu::rand::dev_uniform(s);                                      \
  }                                                                            \
  PKEMU_HD inline double P##_uniform_double(State *s) {                        \
    return ::pkemu::rand::dev_uniform_double(s);                               \
  }                                                                            \
  PKEMU_HD inline float4 P##_uniform4(State *s) {                              \
    float a = P##_uniform(s), b = P##_uniform(s), c = P##_uniform(s),          \
          d = P##_uniform(s);                                                  \
    return make_float4(a, b, c, d);                                            \
  }                                                                            \
  PKEMU_HD inline float P##_normal(State *s) {                                 \
    return ::pkemu::rand::dev_normal<float>(s);                                \
  }                                                                            \
  PKEMU_HD inline double P##_normal_double(State *s) {                         \
    return ::pkemu::rand::dev_normal<double>(s);                               \
  }                                                                            \
  PKEMU_HD inline float2 P##_normal2(State *s) {                               \
    double z0, z1;                                                             \
    ::pkemu::rand::dev_pair(s, z0, z1);                                        \
    return make_float2((float)z0, (float)z1);                                  \
  }                                                                            \
  PKEMU_HD inline double2 P##_normal2_double(State *s) {                       \
    double z0, z1;                                                             \
    ::pkemu::rand::dev_pair(s, z0, z1);                                        \
    return make_double2(z0, z1);                                               \
  }                                                                            \
  PKEMU_HD inline float4 P##_normal4(State *s) {                               \
    float2 a = P##_normal2(s), b = P##_normal2(s);                             \
    return make_float4(a.x, a.y, b.x, b.y);                                    \
  }                                                                            \
  PKEMU_HD inline float P##_log_normal(State *s, float mean, float stddev) {   \
    return std::exp(mean + stddev * P##_normal(s));                            \
  }                                                                            \
  PKEMU_HD inline double P##_log_normal_double(State *s, double mean,          \
                                               double stddev) {                \
    return std::exp(mean + stddev * P##_normal_double(s));                     \
  }                                                                            \
  PKEMU_HD inline unsigned int P##_poisson(State *s, double lambda) {          \
    return ::pkemu::rand::dev_poisson(s, lambda);                              \
  }                                                                            \
  PKEMU_HD inline void skipahead(unsigned long long n, State *s) {             \
    ::pkemu::rand::dev_skipahead(n, s);                                        \
  }
