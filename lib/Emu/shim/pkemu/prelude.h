//===- prelude.h - force-included prelude -----------------------*- C++ -*-===//
// Rules: none (emulator runtime)
//
// pkemu prelude: force-included (-include pkemu/prelude.h) into every CUDA/HIP
// source compiled for the emulator. Provides the kernel language (qualifiers,
// built-in variables, device API) and the runtime API that nvcc/hipcc make
// available without an #include.
//
// Modes:
//   default        host C++ for the emulator (clang++ -x c++), linked with
//   libpkemu.a PKEMU_PARSE    clang in CUDA/HIP mode (-x cuda -nocudainc / -x
//   hip -nogpuinc), parse only
// Language: -DPKEMU_LANG_CUDA (default) or -DPKEMU_LANG_HIP.
//
//===----------------------------------------------------------------------===//
#ifndef PKEMU_PRELUDE_H
#define PKEMU_PRELUDE_H

#if !defined(PKEMU_LANG_CUDA) && !defined(PKEMU_LANG_HIP)
#if defined(__HIP__)
#define PKEMU_LANG_HIP 1
#else
#define PKEMU_LANG_CUDA 1
#endif
#endif
#ifndef PKEMU_DEFAULT_WARP
#if defined(PKEMU_LANG_HIP)
#define PKEMU_DEFAULT_WARP 64
#else
#define PKEMU_DEFAULT_WARP 32
#endif
#endif

#ifdef PKEMU_PARSE
// clang's CUDA wrappers of <algorithm>, <new>, ... need these two.
#ifndef __host__
#define __host__ __attribute__((host))
#endif
#ifndef __device__
#define __device__ __attribute__((device))
#endif
#endif
// C++ library headers that define templates and operators come before the
// host-device region below (redeclaring them there would clash).
#include <stdlib.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <limits>
#include <memory>
#include <new>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>
#ifdef PKEMU_PARSE
// Parsing only: everything the prelude declares (the C/C++ math library
// included) is callable from device code, as in nvcc and hipcc.
#pragma clang force_cuda_host_device begin
#endif

#include <assert.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <new>

// ---------------------------------------------------------------------------------------------
// Kernel-language qualifiers.
#ifdef PKEMU_PARSE
#ifndef __global__
#define __global__ __attribute__((global))
#endif
#ifndef __device__
#define __device__ __attribute__((device))
#endif
#ifndef __host__
#define __host__ __attribute__((host))
#endif
#ifndef __shared__
#define __shared__ __attribute__((shared))
#endif
#ifndef __constant__
#define __constant__ __attribute__((constant))
#endif
#ifndef __managed__
#define __managed__ __attribute__((managed))
#endif
#ifndef __launch_bounds__
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#endif
#else // emulation: everything is host code
#define __global__
#define __device__
#define __host__
#define __constant__
#define __managed__
#define __launch_bounds__(...)
// In-function and namespace-scope __shared__ declarations must have been
// rewritten by emu-prep (PKEMU_SHARED / PKEMU_DYNAMIC_SHARED /
// PKEMU_GLOBAL_SHARED).
#define __shared__                                                             \
  _Pragma("GCC error \"__shared__ must be rewritten to "                       \
          "PKEMU_SHARED/PKEMU_DYNAMIC_SHARED before emulation\"")
#endif
// emu-prep writes PKEMU_HOST_FN before every host-only function of a program
// (lib/Targets/Emu/EmuPrep.cpp): host code is compiled without the memory
// hooks, which check device code; the compiler plugin (HostCode.cpp) finds
// these functions by their annotation and compiles their OpenMP regions and
// the inline functions they call the same way.  -DPKEMU_CHECK_HOST keeps the
// hooks.
#if defined(PKEMU_CHECK_HOST)
#define PKEMU_HOST_FN
#else
#define PKEMU_HOST_FN                                                          \
  __attribute__((no_sanitize("thread"), annotate("pkemu_host")))
#endif
#ifndef __forceinline__
#define __forceinline__ inline __attribute__((always_inline))
#endif
#ifndef __noinline__
#define __noinline__ __attribute__((noinline))
#endif
#ifndef __align__
#define __align__(n) __attribute__((aligned(n)))
#endif
#ifndef __grid_constant__
#define __grid_constant__
#endif
#ifndef __restrict__
#define __restrict__ __restrict
#endif
#ifndef __inline__
#define __inline__ inline
#endif

#if defined(PKEMU_LANG_HIP)
#ifndef __HIPCC__
#define __HIPCC__ 1
#endif
#ifndef __HIP_PLATFORM_AMD__
#define __HIP_PLATFORM_AMD__ 1
#endif
#ifndef __HIP_PLATFORM_HCC__
#define __HIP_PLATFORM_HCC__ 1
#endif
#define __HOST_DEVICE__ __host__ __device__
#else
#ifndef __CUDACC__
#define __CUDACC__ 1
#endif
#endif

#include "../../include/pkemu/runtime.h"
#include "device.h"
#if defined(PKEMU_INLINE_HOOKS) && !defined(PKEMU_PARSE)
#include "inline_hooks.h"
#endif

#ifdef PKEMU_PARSE
// Lets clang parse `k<<<g, b, shmem, stream>>>(args)` in original sources.
#if defined(PKEMU_LANG_HIP)
extern "C" unsigned __hipPushCallConfiguration(dim3 g, dim3 b,
                                               std::size_t shmem = 0,
                                               void *stream = 0);
#else
extern "C" unsigned __cudaPushCallConfiguration(dim3 g, dim3 b,
                                                std::size_t shmem = 0,
                                                void *stream = 0);
#endif
#endif

#if defined(PKEMU_LANG_HIP)
#include "hip_api.h"
// The include guard of <hip/driver_types.h>, which <hip/hip_runtime.h> pulls
// in: code that tests it (helper_cuda.h-style error macros) sees the runtime.
#ifndef HIP_INCLUDE_HIP_DRIVER_TYPES_H
#define HIP_INCLUDE_HIP_DRIVER_TYPES_H
#endif
// The guards of <hip/hip_runtime.h> and <hip/hip_runtime_api.h>, which the
// port writes for CUDA's __CUDA_RUNTIME_H__ and __CUDA_RUNTIME_API_H__
// (helper_cuda.h's device-selection helpers test them).
#ifndef HIP_INCLUDE_HIP_HIP_RUNTIME_H
#define HIP_INCLUDE_HIP_HIP_RUNTIME_H
#endif
#ifndef HIP_INCLUDE_HIP_HIP_RUNTIME_API_H
#define HIP_INCLUDE_HIP_HIP_RUNTIME_API_H
#endif
#else
#include "cuda_api.h"
// The include guard of CUDA's driver_types.h, which nvcc's implicit
// cuda_runtime.h pulls in: the sample suites' helper_cuda.h defines
// checkCudaErrors only when it is set.
#ifndef __DRIVER_TYPES_H__
#define __DRIVER_TYPES_H__
#endif
// The guards of cuda_runtime.h and cuda_runtime_api.h: helper_cuda.h
// defines its device-selection helpers (findCudaDevice, gpuDeviceInit, ...)
// only when __CUDA_RUNTIME_H__ is set.
#ifndef __CUDA_RUNTIME_H__
#define __CUDA_RUNTIME_H__
#endif
#ifndef __CUDA_RUNTIME_API_H__
#define __CUDA_RUNTIME_API_H__
#endif
#endif

#ifdef PKEMU_PARSE
#pragma clang force_cuda_host_device end
// Device printf: <cstdio> comes before the host-device region above, so its
// printf is host-only for the parse; kernels call this overload (as with
// nvcc's common_functions.h and clang's CUDA wrapper).
extern "C" __device__ int printf(const char *, ...);
// HIP's device abort() (what __trap() ports to).
extern "C" __device__ __attribute__((noreturn)) void abort(void);
// Device-side memcpy/memset (CUDA and HIP declare them __device__ too; the
// C library's declarations are host-only). Outside the host-device region:
// overloads of the host declarations.
extern "C" __device__ void *memcpy(void *, const void *, std::size_t);
extern "C" __device__ void *memset(void *, int, std::size_t);
// Device-side malloc/free (the emulator records what kernels allocate).
extern "C" __device__ void *malloc(std::size_t);
extern "C" __device__ void free(void *);
// The device's clock() (CUDA and HIP: a per-multiprocessor counter). In the
// emulator's build the plugin's Effects pass sends every call of clock() to
// pkemu_clock, which counts the device's cycles at its reported clockRate
// (1 GHz: nanoseconds) inside a kernel and is the C library's clock()
// outside.
extern "C" __device__ clock_t clock(void);
#endif

#ifndef PKEMU_PARSE
namespace {
// Tells the runtime this program's default warp width and language (before main
// runs).
[[maybe_unused]] const int pkemu_tu_registration_ =
    (::pkemu::detail::register_translation_unit(PKEMU_DEFAULT_WARP,
#if defined(PKEMU_LANG_HIP)
                                                1
#else
                                                0
#endif
                                                ),
     ::pkemu::detail::register_effects_pass(
         ::pkemu::detail::__pkemu_effects_pass_ran()),
     0);
} // namespace
#endif

#endif // PKEMU_PRELUDE_H
