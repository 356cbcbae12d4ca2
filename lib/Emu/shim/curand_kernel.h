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

PKEMU_RAND_DEVICE_API(curand, curandState_t)
#endif
