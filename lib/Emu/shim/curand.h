//===- curand.h - cuRAND host API for the emulator -*- C++ -*-===//
// Rules: none (emulator runtime)
//
// The cuRAND host API (generators, seeds, offsets, uniform, normal and
// log-normal draws) with the library's types and values, computed by the CPU
// generator of pkemu/rand.h: the same numbers for the same seed whichever
// generator kind and library, not the numbers a GPU draws.
//
//===----------------------------------------------------------------------===//
#ifndef PKEMU_CURAND_H
#define PKEMU_CURAND_H
#include "cuda_runtime.h"
#include "pkemu/rand.h"

typedef enum {
  CURAND_STATUS_SUCCESS = 0,
  CURAND_STATUS_VERSION_MISMATCH = 100,
  CURAND_STATUS_NOT_INITIALIZED = 101,
  CURAND_STATUS_ALLOCATION_FAILED = 102,
  CURAND_STATUS_TYPE_ERROR = 103,
  CURAND_STATUS_OUT_OF_RANGE = 104,
  CURAND_STATUS_LENGTH_NOT_MULTIPLE = 105,
  CURAND_STATUS_DOUBLE_PRECISION_REQUIRED = 106,
  CURAND_STATUS_LAUNCH_FAILURE = 201,
  CURAND_STATUS_PREEXISTING_FAILURE = 202,
  CURAND_STATUS_INITIALIZATION_FAILED = 203,
  CURAND_STATUS_ARCH_MISMATCH = 204,
  CURAND_STATUS_INTERNAL_ERROR = 999
} curandStatus_t;
typedef enum {
  CURAND_RNG_TEST = 0,
  CURAND_RNG_PSEUDO_DEFAULT = 100,
  CURAND_RNG_PSEUDO_XORWOW = 101,
  CURAND_RNG_PSEUDO_MRG32K3A = 121,
  CURAND_RNG_PSEUDO_MTGP32 = 141,
  CURAND_RNG_PSEUDO_MT19937 = 142,
  CURAND_RNG_PSEUDO_PHILOX4_32_10 = 161,
  CURAND_RNG_QUASI_DEFAULT = 200,
  CURAND_RNG_QUASI_SOBOL32 = 201,
  CURAND_RNG_QUASI_SCRAMBLED_SOBOL32 = 202,
  CURAND_RNG_QUASI_SOBOL64 = 203,
  CURAND_RNG_QUASI_SCRAMBLED_SOBOL64 = 204
} curandRngType_t;
typedef struct curandGenerator_st *curandGenerator_t;
typedef curandStatus_t curandStatus;
typedef curandRngType_t curandRngType;

namespace pkemu {
namespace curand {
inline rand::Generator *g(curandGenerator_t x) { return (rand::Generator *)x; }
inline curandStatus_t status(int s) {
  return s == rand::kOk                  ? CURAND_STATUS_SUCCESS
         : s == rand::kLengthNotMultiple ? CURAND_STATUS_LENGTH_NOT_MULTIPLE
                                         : CURAND_STATUS_NOT_INITIALIZED;
}
} // namespace curand
} // namespace pkemu

inline curandStatus_t curandCreateGenerator(curandGenerator_t *gen,
                                            curandRngType_t) {
  if (!gen)
    return CURAND_STATUS_NOT_INITIALIZED;
  *gen = (curandGenerator_t) new pkemu::rand::Generator();
  return CURAND_STATUS_SUCCESS;
}
inline curandStatus_t curandCreateGeneratorHost(curandGenerator_t *gen,
                                                curandRngType_t t) {
  return curandCreateGenerator(gen, t);
}
inline curandStatus_t curandDestroyGenerator(curandGenerator_t gen) {
  if (!gen)
    return CURAND_STATUS_NOT_INITIALIZED;
  delete pkemu::curand::g(gen);
  return CURAND_STATUS_SUCCESS;
}
inline curandStatus_t curandSetStream(curandGenerator_t gen, cudaStream_t s) {
  if (!gen)
    return CURAND_STATUS_NOT_INITIALIZED;
  pkemu::curand::g(gen)->stream = (void *)s;
  return CURAND_STATUS_SUCCESS;
}
inline curandStatus_t
curandSetPseudoRandomGeneratorSeed(curandGenerator_t gen,
                                   unsigned long long seed) {
  if (!gen)
    return CURAND_STATUS_NOT_INITIALIZED;
  pkemu::curand::g(gen)->seed = seed;
  pkemu::curand::g(gen)->position = 0;
  return CURAND_STATUS_SUCCESS;
}
inline curandStatus_t curandSetGeneratorOffset(curandGenerator_t gen,
                                               unsigned long long offset) {
  if (!gen)
    return CURAND_STATUS_NOT_INITIALIZED;
  pkemu::curand::g(gen)->position = offset;
  return CURAND_STATUS_SUCCESS;
}
inline curandStatus_t curandGenerate(curandGenerator_t gen, unsigned int *out,
                                     size_t n) {
  if (!gen)
    return CURAND_STATUS_NOT_INITIALIZED;
  return pkemu::curand::status(
      pkemu::rand::generate_bits(*pkemu::curand::g(gen), out, n));
}
inline curandStatus_t curandGenerateUniform(curandGenerator_t gen, float *out,
                                            size_t n) {
  if (!gen)
    return CURAND_STATUS_NOT_INITIALIZED;
  return pkemu::curand::status(
      pkemu::rand::generate_uniform(*pkemu::curand::g(gen), out, n));
}
inline curandStatus_t curandGenerateUniformDouble(curandGenerator_t gen,
                                                  double *out, size_t n) {
  if (!gen)
    return CURAND_STATUS_NOT_INITIALIZED;
  return pkemu::curand::status(
      pkemu::rand::generate_uniform(*pkemu::curand::g(gen), out, n));
}
inline curandStatus_t curandGenerateNormal(curandGenerator_t gen, float *out,
                                           size_t n, float mean, float stddev) {
  if (!gen)
    return CURAND_STATUS_NOT_INITIALIZED;
  return pkemu::curand::status(pkemu::rand::generate_normal(
      *pkemu::curand::g(gen), out, n, mean, stddev, false));
}
inline curandStatus_t curandGenerateNormalDouble(curandGenerator_t gen,
                                                 double *out, size_t n,
                                                 double mean, double stddev) {
  if (!gen)
    return CURAND_STATUS_NOT_INITIALIZED;
  return pkemu::curand::status(pkemu::rand::generate_normal(
      *pkemu::curand::g(gen), out, n, mean, stddev, false));
}
inline curandStatus_t curandGenerateLogNormal(curandGenerator_t gen, float *out,
                                              size_t n, float mean,
                                              float stddev) {
  if (!gen)
    return CURAND_STATUS_NOT_INITIALIZED;
  return pkemu::curand::status(pkemu::rand::generate_normal(
      *pkemu::curand::g(gen), out, n, mean, stddev, true));
}
inline curandStatus_t curandGenerateLogNormalDouble(curandGenerator_t gen,
                                                    double *out, size_t n,
                                                    double mean,
                                                    double stddev) {
  if (!gen)
    return CURAND_STATUS_NOT_INITIALIZED;
  return pkemu::curand::status(pkemu::rand::generate_normal(
      *pkemu::curand::g(gen), out, n, mean, stddev, true));
}
// The guard of curand.h (helper_cuda.h's curandStatus_t error strings).
#ifndef CURAND_H_
#define CURAND_H_
#endif
#endif
