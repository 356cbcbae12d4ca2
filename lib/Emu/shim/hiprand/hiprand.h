//===- hiprand/hiprand.h - hipRAND host API for the emulator -*- C++ -*-===//
// Rules: none (emulator runtime)
//
// The hipRAND host API (generators, seeds, offsets, uniform, normal and
// log-normal draws) with the library's types and values, computed by the CPU
// generator of pkemu/rand.h: the same numbers for the same seed whichever
// generator kind and library, not the numbers a GPU draws.
//
//===----------------------------------------------------------------------===//
#ifndef PKEMU_HIPRAND_H
#define PKEMU_HIPRAND_H
#include "../hip/hip_runtime.h"
#include "../pkemu/rand.h"

typedef enum {
  HIPRAND_STATUS_SUCCESS = 0,
  HIPRAND_STATUS_VERSION_MISMATCH = 100,
  HIPRAND_STATUS_NOT_INITIALIZED = 101,
  HIPRAND_STATUS_ALLOCATION_FAILED = 102,
  HIPRAND_STATUS_TYPE_ERROR = 103,
  HIPRAND_STATUS_OUT_OF_RANGE = 104,
  HIPRAND_STATUS_LENGTH_NOT_MULTIPLE = 105,
  HIPRAND_STATUS_DOUBLE_PRECISION_REQUIRED = 106,
  HIPRAND_STATUS_LAUNCH_FAILURE = 201,
  HIPRAND_STATUS_PREEXISTING_FAILURE = 202,
  HIPRAND_STATUS_INITIALIZATION_FAILED = 203,
  HIPRAND_STATUS_ARCH_MISMATCH = 204,
  HIPRAND_STATUS_INTERNAL_ERROR = 999,
  HIPRAND_STATUS_NOT_IMPLEMENTED = 1000
} hiprandStatus_t;
typedef enum {
  HIPRAND_RNG_TEST = 0,
  HIPRAND_RNG_PSEUDO_DEFAULT = 400,
  HIPRAND_RNG_PSEUDO_XORWOW = 401,
  HIPRAND_RNG_PSEUDO_MRG32K3A = 402,
  HIPRAND_RNG_PSEUDO_MTGP32 = 403,
  HIPRAND_RNG_PSEUDO_MT19937 = 404,
  HIPRAND_RNG_PSEUDO_PHILOX4_32_10 = 405,
  HIPRAND_RNG_QUASI_DEFAULT = 500,
  HIPRAND_RNG_QUASI_SOBOL32 = 501,
  HIPRAND_RNG_QUASI_SCRAMBLED_SOBOL32 = 502,
  HIPRAND_RNG_QUASI_SOBOL64 = 503,
  HIPRAND_RNG_QUASI_SCRAMBLED_SOBOL64 = 504
} hiprandRngType_t;
typedef struct hiprandGenerator_st *hiprandGenerator_t;

namespace pkemu {
namespace hiprand {
inline rand::Generator *g(hiprandGenerator_t x) { return (rand::Generator *)x; }
inline hiprandStatus_t status(int s) {
  return s == rand::kOk                  ? HIPRAND_STATUS_SUCCESS
         : s == rand::kLengthNotMultiple ? HIPRAND_STATUS_LENGTH_NOT_MULTIPLE
                                         : HIPRAND_STATUS_NOT_INITIALIZED;
}
} // namespace hiprand
} // namespace pkemu

inline hiprandStatus_t hiprandCreateGenerator(hiprandGenerator_t *gen,
                                              hiprandRngType_t) {
  if (!gen)
    return HIPRAND_STATUS_NOT_INITIALIZED;
  *gen = (hiprandGenerator_t) new pkemu::rand::Generator();
  return HIPRAND_STATUS_SUCCESS;
}
inline hiprandStatus_t hiprandCreateGeneratorHost(hiprandGenerator_t *gen,
                                                  hiprandRngType_t t) {
  return hiprandCreateGenerator(gen, t);
}
inline hiprandStatus_t hiprandDestroyGenerator(hiprandGenerator_t gen) {
  if (!gen)
    return HIPRAND_STATUS_NOT_INITIALIZED;
  delete pkemu::hiprand::g(gen);
  return HIPRAND_STATUS_SUCCESS;
}
inline hiprandStatus_t hiprandSetStream(hiprandGenerator_t gen, hipStream_t s) {
  if (!gen)
    return HIPRAND_STATUS_NOT_INITIALIZED;
  pkemu::hiprand::g(gen)->stream = (void *)s;
  return HIPRAND_STATUS_SUCCESS;
}
inline hiprandStatus_t
hiprandSetPseudoRandomGeneratorSeed(hiprandGenerator_t gen,
                                    unsigned long long seed) {
  if (!gen)
    return HIPRAND_STATUS_NOT_INITIALIZED;
  pkemu::hiprand::g(gen)->seed = seed;
  pkemu::hiprand::g(gen)->position = 0;
  return HIPRAND_STATUS_SUCCESS;
}
inline hiprandStatus_t hiprandSetGeneratorOffset(hiprandGenerator_t gen,
                                                 unsigned long long offset) {
  if (!gen)
    return HIPRAND_STATUS_NOT_INITIALIZED;
  pkemu::hiprand::g(gen)->position = offset;
  return HIPRAND_STATUS_SUCCESS;
}
inline hiprandStatus_t hiprandGenerate(hiprandGenerator_t gen,
                                       unsigned int *out, size_t n) {
  if (!gen)
    return HIPRAND_STATUS_NOT_INITIALIZED;
  return pkemu::hiprand::status(
      pkemu::rand::generate_bits(*pkemu::hiprand::g(gen), out, n));
}
inline hiprandStatus_t hiprandGenerateUniform(hiprandGenerator_t gen,
                                              float *out, size_t n) {
  if (!gen)
    return HIPRAND_STATUS_NOT_INITIALIZED;
  return pkemu::hiprand::status(
      pkemu::rand::generate_uniform(*pkemu::hiprand::g(gen), out, n));
}
inline hiprandStatus_t hiprandGenerateUniformDouble(hiprandGenerator_t gen,
                                                    double *out, size_t n) {
  if (!gen)
    return HIPRAND_STATUS_NOT_INITIALIZED;
  return pkemu::hiprand::status(
      pkemu::rand::generate_uniform(*pkemu::hiprand::g(gen), out, n));
}
inline hiprandStatus_t hiprandGenerateNormal(hiprandGenerator_t gen, float *out,
                                             size_t n, float mean,
                                             float stddev) {
  if (!gen)
    return HIPRAND_STATUS_NOT_INITIALIZED;
  return pkemu::hiprand::status(pkemu::rand::generate_normal(
      *pkemu::hiprand::g(gen), out, n, mean, stddev, false));
}
inline hiprandStatus_t hiprandGenerateNormalDouble(hiprandGenerator_t gen,
                                                   double *out, size_t n,
                                                   double mean, double stddev) {
  if (!gen)
    return HIPRAND_STATUS_NOT_INITIALIZED;
  return pkemu::hiprand::status(pkemu::rand::generate_normal(
      *pkemu::hiprand::g(gen), out, n, mean, stddev, false));
}
inline hiprandStatus_t hiprandGenerateLogNormal(hiprandGenerator_t gen,
                                                float *out, size_t n,
                                                float mean, float stddev) {
  if (!gen)
    return HIPRAND_STATUS_NOT_INITIALIZED;
  return pkemu::hiprand::status(pkemu::rand::generate_normal(
      *pkemu::hiprand::g(gen), out, n, mean, stddev, true));
}
inline hiprandStatus_t hiprandGenerateLogNormalDouble(hiprandGenerator_t gen,
                                                      double *out, size_t n,
                                                      double mean,
                                                      double stddev) {
  if (!gen)
    return HIPRAND_STATUS_NOT_INITIALIZED;
  return pkemu::hiprand::status(pkemu::rand::generate_normal(
      *pkemu::hiprand::g(gen), out, n, mean, stddev, true));
}
// The guard of hiprand.h (the port of curand.h's, PK1022).
#ifndef HIPRAND_H_
#define HIPRAND_H_
#endif
#endif
