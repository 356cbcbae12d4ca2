// PK1026: the CUDA parse defines what nvcc predefines (__NVCC__, __CUDACC__,
// __CUDACC_VER_MAJOR__/MINOR__/BUILD__), so code that tests them is
// translated on nvcc's branch; the HIP output, which hipcc compiles without
// them, keeps that branch (and so do CUDART_VERSION and CUDA_VERSION, which
// nvcc's implicit headers define): __NVCC__ and __CUDACC__ become __HIP__ (defined
// where a HIP compiler builds a translation unit, as they are where nvcc
// does: a .cpp the host compiler builds alone keeps its own branch), the
// version macros their values.
// The version is the bundled declarations' (12.8) here: --cuda-path=none.
// RUN: rm -rf %t && %pk port -q --to hip --cuda-path=none -o %t/o %s 2>&1 | count 0
// RUN: FileCheck %s --match-full-lines --input-file=%t/o/hip/PK1026.hip
// With the toolkit's nvcc (13.0.88 here) the values are its own.
// RUN: %pk port -q --to hip --report %t/r.json -o %t/t %s
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t/r.json
// REPORT: "rule": "PK1026",
// REPORT-NEXT: "why": "#ifdef __NVCC__: __NVCC__ is defined where nvcc compiles a translation unit; __HIP__ is where a HIP compiler does (a .cpp the host compiler builds alone has neither), so the translated branch is kept"
// The other targets keep the macros: nvcc compiles their outputs.
// RUN: %pk port -q --to cuda -o %t/c %s
// RUN: FileCheck %s --match-full-lines --check-prefix=CUDA --input-file=%t/c/cuda/PK1026.cu
#include <cuda_runtime.h>

#ifdef __NVCC__
// CHECK: #ifdef __HIP__
// CUDA: #ifdef __NVCC__
#define PK_WARP 32
#else
#error "the parse took the branch of another compiler"
#endif

#ifndef __CUDACC__
// CHECK: #ifndef __HIP__
#error "not a CUDA compiler"
#endif

#if defined(__NVCC__) && (__CUDACC_VER_MAJOR__ > 12 || (__CUDACC_VER_MAJOR__ == 12 && __CUDACC_VER_MINOR__ >= 8))
// CHECK: #if defined(__HIP__) && (12 > 12 || (12 == 12 && 8 >= 8))
__device__ inline unsigned lanes() { return 1u; }
#elif defined __CUDACC__
// CHECK: #elif defined __HIP__
__device__ inline unsigned lanes() { return 0u; }
#endif

__global__ void k(int *out) {
  out[threadIdx.x] = PK_WARP + (int)(lanes() & 1u) + __CUDACC_VER_BUILD__;
// CHECK: out[threadIdx.x] = PK_WARP + (int)(lanes() & 1u) + 0;
}

// The runtime's version, which cuda_runtime_api.h defines (the CUDA samples
// test it): its value, as for the compiler's version.
#if CUDART_VERSION >= 2020 && defined(CUDA_VERSION)
// CHECK: #if 12080 >= 2020 && 1
__device__ inline int modern() { return 1; }
#else
#error "an old runtime"
#endif

// A header shared with .cpp files the host compiler builds: its guard.
#ifdef __CUDACC__
#define PK_HD __host__ __device__
#else
#define PK_HD
#endif
// CHECK: #ifdef __HIP__
// CHECK-NEXT: #define PK_HD __host__ __device__
PK_HD inline int twice(int x) { return 2 * x; }

// Messages and pragmas are left as written.
#if 0
#error needs __NVCC__
// CHECK: #error needs __NVCC__
#endif
