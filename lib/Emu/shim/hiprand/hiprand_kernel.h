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

PKEMU_RAND_DEVICE_API(hiprand, hiprandState_t)
#endif
