/*===- __pk_cuda_prelude.h - CUDA language support without a toolkit ------===*
 *
 * Force-included (-include __pk_cuda_prelude.h) when port-kernel parses CUDA
 * sources on a machine without a CUDA toolkit.  Clang runs with -nocudainc,
 * so none of its CUDA runtime wrapper is active; this file plays that role:
 * it defines the kernel-language keywords, pulls in clang's own device-side
 * resource headers (built-in variables, libdevice declarations, math and
 * intrinsics) and finally the declarations in this directory (cuda_runtime.h
 * and what it includes), as nvcc does implicitly.
 *
 * Everything here is a declaration of the documented CUDA API for parsing
 * only; nothing is meant to be compiled to code.
 *===-----------------------------------------------------------------------===*/
#ifndef __PK_CUDA_PRELUDE_H
#define __PK_CUDA_PRELUDE_H

#if !defined(__CUDA__) || !defined(__clang__)
#error "__pk_cuda_prelude.h is for clang in CUDA mode (-x cuda)"
#endif

#define __PK_CUDA_DECLS__ 1

/* Version macros of the API level these declarations follow (CUDA 12.x). */
#ifndef CUDA_VERSION
#define CUDA_VERSION 12080
#endif
#ifndef CUDART_VERSION
#define CUDART_VERSION 12080
#endif
#define __CUDACC_VER_MAJOR__ 12
#define __CUDACC_VER_MINOR__ 8
#define __CUDACC_VER_BUILD__ 0

/* ---- Kernel-language keywords ------------------------------------------ */
#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __grid_constant__ __attribute__((grid_constant))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __inline_hint__ __attribute__((nv_inline_hint))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __restrict__ __restrict
#define __align__(n) __attribute__((aligned(n)))
#define __builtin_align__(n) __attribute__((aligned(n)))
#define __thread__ __thread
#define __device_builtin__
#define __device_builtin_texture_type__
#define __device_builtin_surface_type__
#define __cudart_builtin__
#define __specialization_static
#define CUDARTAPI
#define CUDART_CB
#define __CUDA_ALIGN__(n) __attribute__((aligned(n)))

/* ---- Standard library, before anything redefines __THROW & co. --------- */
#include <__clang_cuda_math_forward_declares.h>
/* libstdc++ avoids __float128 only when it sees __CUDACC__. */
#define __CUDACC__
#include <cmath>
#include <cstdlib>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <limits.h>
#include <new>

/* Device code sees the widest set of functions, like clang's own wrapper. */
#pragma push_macro("__CUDA_ARCH__")
#ifndef __CUDA_ARCH__
#define __CUDA_ARCH__ 9999
#endif

/* ---- Built-in variables (threadIdx, blockIdx, blockDim, gridDim, warpSize) */
#include <__clang_cuda_builtin_vars.h>
#define __DEVICE_LAUNCH_PARAMETERS_H__

/* ---- Vector types, dim3, runtime types -------------------------------- */
#include "cuda.h"
#include "vector_types.h"
#include "vector_functions.h"
#include "driver_types.h"

/* ---- Device functions from clang's resource directory ------------------ */
#include <__clang_cuda_libdevice_declares.h>
#include <__clang_cuda_device_functions.h>
#include <__clang_cuda_math.h>

#undef __THROW
#define __THROW

#include "device_atomic_functions.h"

/* Device functions of the programming guide that clang's headers lack. */
__device__ void __nanosleep(unsigned int ns);
__device__ int __dp4a(int srcA, int srcB, int c);
__device__ unsigned int __dp4a(unsigned int srcA, unsigned int srcB, unsigned int c);
__device__ int __dp4a(char4 srcA, char4 srcB, int c);
__device__ unsigned int __dp4a(uchar4 srcA, uchar4 srcB, unsigned int c);
__device__ int __dp2a_lo(int srcA, int srcB, int c);
__device__ unsigned int __dp2a_lo(unsigned int srcA, unsigned int srcB, unsigned int c);
__device__ int __dp2a_hi(int srcA, int srcB, int c);
__device__ unsigned int __dp2a_hi(unsigned int srcA, unsigned int srcB, unsigned int c);

/* Device-side C library: printf, malloc, free, assert. */
extern "C" {
__device__ int vprintf(const char *, const char *);
__device__ int printf(const char *, ...);
__device__ void free(void *) __attribute__((nothrow));
__device__ void *malloc(size_t) __attribute__((nothrow)) __attribute__((malloc));
__device__ void *memcpy(void *, const void *, size_t);
__device__ void *memset(void *, int, size_t);
__device__ void __assertfail(const char *__message, const char *__file,
                             unsigned __line, const char *__function,
                             size_t __charSize);
__device__ static inline void __assert_fail(const char *__message,
                                            const char *__file, unsigned __line,
                                            const char *__function) {
  __assertfail(__message, __file, __line, __function, sizeof(char));
}
}
namespace std {
__device__ static inline void free(void *__ptr) { ::free(__ptr); }
__device__ static inline void *malloc(size_t __size) { return ::malloc(__size); }
}

/* Conversions of the built-in variables, now that dim3 and uint3 exist. */
__device__ inline __cuda_builtin_threadIdx_t::operator dim3() const { return dim3(x, y, z); }
__device__ inline __cuda_builtin_threadIdx_t::operator uint3() const { return {x, y, z}; }
__device__ inline __cuda_builtin_blockIdx_t::operator dim3() const { return dim3(x, y, z); }
__device__ inline __cuda_builtin_blockIdx_t::operator uint3() const { return {x, y, z}; }
__device__ inline __cuda_builtin_blockDim_t::operator dim3() const { return dim3(x, y, z); }
__device__ inline __cuda_builtin_blockDim_t::operator uint3() const { return {x, y, z}; }
__device__ inline __cuda_builtin_gridDim_t::operator dim3() const { return dim3(x, y, z); }
__device__ inline __cuda_builtin_gridDim_t::operator uint3() const { return {x, y, z}; }

/* Address-space predicates and conversions (sm_20 intrinsics).  clang's
 * intrinsics header supplies the conversions' implementation helpers and
 * uses these names, so they are declared first. */
__device__ unsigned int __isGlobal(const void *ptr);
__device__ unsigned int __isShared(const void *ptr);
__device__ unsigned int __isConstant(const void *ptr);
__device__ unsigned int __isLocal(const void *ptr);
__device__ size_t __cvta_generic_to_global(const void *ptr);
__device__ size_t __cvta_generic_to_shared(const void *ptr);
__device__ size_t __cvta_generic_to_constant(const void *ptr);
__device__ size_t __cvta_generic_to_local(const void *ptr);
__device__ void *__cvta_global_to_generic(size_t rawbits);
__device__ void *__cvta_shared_to_generic(size_t rawbits);
__device__ void *__cvta_constant_to_generic(size_t rawbits);
__device__ void *__cvta_local_to_generic(size_t rawbits);

#include <__clang_cuda_cmath.h>
/* Includes "crt/sm_70_rt.hpp" from this directory for __match_*_sync. */
#include <__clang_cuda_intrinsics.h>
#include <__clang_cuda_complex_builtins.h>

#pragma pop_macro("__CUDA_ARCH__")

/* ---- Kernel launch: clang lowers <<<g, b, s, st>>> to this call --------- */
extern "C" unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim,
                                                size_t sharedMem = 0,
                                                void *stream = 0);
/* Older launch protocol; declared with the runtime API (cuda_runtime_api.h). */

/* ---- The runtime API, as nvcc includes it implicitly ------------------- */
#include "cuda_runtime.h"

#endif /* __PK_CUDA_PRELUDE_H */
