/* What nvcc accepts and clang 19 does not, declared for parsing only.
 *
 * port-kernel force-includes this header (-include) when it parses CUDA
 * against a toolkit newer than clang 19 knows (CUDA 12.6 and later; CUDA 13
 * is installed here).  Nothing here is emitted into an output: these are
 * declarations that let the parser accept code nvcc compiles, so that the
 * code can be translated.  Each block names the idiom it admits; the test
 * test/reliability/lit/parse-nvcc-idioms.cu has one case per block.
 */
#pragma GCC system_header
#ifndef PK_NVCC_COMPAT_H
#define PK_NVCC_COMPAT_H
#if defined(__cplusplus) && defined(__CUDA__)

/* nvcc's crt/common_functions.h, which every CUDA translation unit includes,
 * includes <string.h>, <time.h>, <stdio.h>, <stdlib.h> and <assert.h>:
 * programs call clock(), memcpy(), printf() and assert() in host code without
 * including them (llm.c's dev/cuda/permute.cu times its CPU reference with
 * clock()). */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmath>
#include <type_traits>

/* 1. Cache-hinted loads and stores on any type (float4, int2, structs):
 *    nvcc's sm_32_intrinsics declare them for the vector types, clang's
 *    wrapper does not declare them at all. */
template <typename T> __device__ T __ldcs(const T *);
template <typename T> __device__ T __ldcg(const T *);
template <typename T> __device__ T __ldca(const T *);
template <typename T> __device__ T __ldlu(const T *);
template <typename T> __device__ T __ldcv(const T *);
template <typename T> __device__ void __stcs(T *, T);
template <typename T> __device__ void __stcg(T *, T);
template <typename T> __device__ void __stwb(T *, T);
template <typename T> __device__ void __stwt(T *, T);

/* 2. min/max on the host, and from __host__ __device__ functions, for any
 *    pair of arithmetic types: nvcc's math_functions.hpp has host overloads
 *    (min(size_t, int) is unsigned long there too); clang's are device-only. */
template <typename A, typename B,
          typename = std::enable_if_t<std::is_arithmetic_v<A> &&
                                      std::is_arithmetic_v<B>>>
__host__ __device__ std::common_type_t<A, B> min(A a, B b);
template <typename A, typename B,
          typename = std::enable_if_t<std::is_arithmetic_v<A> &&
                                      std::is_arithmetic_v<B>>>
__host__ __device__ std::common_type_t<A, B> max(A a, B b);

/* Same-type pairs: host overloads next to clang's device ones, so that a
 * __host__ __device__ function calling max(int, int) finds a host max. */
#define PK_HOST_MINMAX(T)                                                      \
  __host__ T min(T, T);                                                        \
  __host__ T max(T, T);
PK_HOST_MINMAX(int)
PK_HOST_MINMAX(unsigned int)
PK_HOST_MINMAX(long)
PK_HOST_MINMAX(unsigned long)
PK_HOST_MINMAX(long long)
PK_HOST_MINMAX(unsigned long long)
PK_HOST_MINMAX(float)
PK_HOST_MINMAX(double)
#undef PK_HOST_MINMAX

/* 3. The classification functions unqualified on the host (nvcc's
 *    math_functions.h puts std's into the global namespace). */
using std::isfinite;
using std::isinf;
using std::isnan;
using std::signbit;

/* 4. CUDA 12's scoped atomics (__nv_atomic_*): nvcc builtins. */
#ifndef __NV_ATOMIC_RELAXED
#define __NV_ATOMIC_RELAXED 0
#define __NV_ATOMIC_CONSUME 1
#define __NV_ATOMIC_ACQUIRE 2
#define __NV_ATOMIC_RELEASE 3
#define __NV_ATOMIC_ACQ_REL 4
#define __NV_ATOMIC_SEQ_CST 5
#define __NV_THREAD_SCOPE_THREAD 0
#define __NV_THREAD_SCOPE_BLOCK 1
#define __NV_THREAD_SCOPE_CLUSTER 2
#define __NV_THREAD_SCOPE_DEVICE 3
#define __NV_THREAD_SCOPE_SYSTEM 4
#endif
#define PK_NV_ATOMIC_RMW(name)                                                 \
  template <typename T, typename U>                                            \
  __device__ T name(T *, U, int, int = __NV_THREAD_SCOPE_SYSTEM);
PK_NV_ATOMIC_RMW(__nv_atomic_fetch_add)
PK_NV_ATOMIC_RMW(__nv_atomic_fetch_sub)
PK_NV_ATOMIC_RMW(__nv_atomic_fetch_and)
PK_NV_ATOMIC_RMW(__nv_atomic_fetch_or)
PK_NV_ATOMIC_RMW(__nv_atomic_fetch_xor)
PK_NV_ATOMIC_RMW(__nv_atomic_fetch_min)
PK_NV_ATOMIC_RMW(__nv_atomic_fetch_max)
PK_NV_ATOMIC_RMW(__nv_atomic_exchange_n)
#undef PK_NV_ATOMIC_RMW
#define PK_NV_ATOMIC_VOID(name)                                                \
  template <typename T, typename U>                                            \
  __device__ void name(T *, U, int, int = __NV_THREAD_SCOPE_SYSTEM);
PK_NV_ATOMIC_VOID(__nv_atomic_add)
PK_NV_ATOMIC_VOID(__nv_atomic_sub)
PK_NV_ATOMIC_VOID(__nv_atomic_and)
PK_NV_ATOMIC_VOID(__nv_atomic_or)
PK_NV_ATOMIC_VOID(__nv_atomic_xor)
PK_NV_ATOMIC_VOID(__nv_atomic_min)
PK_NV_ATOMIC_VOID(__nv_atomic_max)
PK_NV_ATOMIC_VOID(__nv_atomic_store_n)
#undef PK_NV_ATOMIC_VOID
template <typename T>
__device__ T __nv_atomic_load_n(const T *, int,
                                int = __NV_THREAD_SCOPE_SYSTEM);
template <typename T>
__device__ void __nv_atomic_load(const T *, T *, int,
                                 int = __NV_THREAD_SCOPE_SYSTEM);
template <typename T>
__device__ void __nv_atomic_store(T *, T *, int,
                                  int = __NV_THREAD_SCOPE_SYSTEM);
template <typename T>
__device__ void __nv_atomic_exchange(T *, T *, T *, int,
                                     int = __NV_THREAD_SCOPE_SYSTEM);
template <typename T, typename U>
__device__ bool __nv_atomic_compare_exchange_n(T *, T *, U, bool, int, int,
                                               int = __NV_THREAD_SCOPE_SYSTEM);
template <typename T>
__device__ bool __nv_atomic_compare_exchange(T *, T *, T *, bool, int, int,
                                             int = __NV_THREAD_SCOPE_SYSTEM);
__device__ void __nv_atomic_thread_fence(int, int = __NV_THREAD_SCOPE_SYSTEM);

/* 5. Runtime functions the toolkit removed (CUDA 12/13), declared so that
 *    legacy code parses and the CUDA target can replace them with their
 *    current forms (PK6010, rules/cuda-legacy/runtime.yaml).  An output that
 *    still calls one does not compile with nvcc. */
#include <driver_types.h>
cudaError_t cudaThreadSynchronize(void);
cudaError_t cudaThreadExit(void);
cudaError_t cudaThreadSetLimit(enum cudaLimit, size_t);
cudaError_t cudaThreadGetLimit(size_t *, enum cudaLimit);
cudaError_t cudaThreadSetCacheConfig(enum cudaFuncCache);
cudaError_t cudaThreadGetCacheConfig(enum cudaFuncCache *);
cudaError_t cudaSetDoubleForDevice(double *);
cudaError_t cudaSetDoubleForHost(double *);

#endif
#endif
