/*===- host_defines.h - CUDA kernel-language keywords ----------------------===*
 *
 * Declarations for parsing CUDA sources without a toolkit.  The keywords are
 * normally defined by __pk_cuda_prelude.h; this header only fills in what is
 * missing when it is included on its own.
 *===-----------------------------------------------------------------------===*/
#ifndef __PK_HOST_DEFINES_H
#define __PK_HOST_DEFINES_H
#ifndef __host__
#define __host__ __attribute__((host))
#endif
#ifndef __device__
#define __device__ __attribute__((device))
#endif
#ifndef __global__
#define __global__ __attribute__((global))
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
#ifndef __forceinline__
#define __forceinline__ __inline__ __attribute__((always_inline))
#endif
#ifndef __noinline__
#define __noinline__ __attribute__((noinline))
#endif
#ifndef __align__
#define __align__(n) __attribute__((aligned(n)))
#endif
#ifndef __launch_bounds__
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#endif
#ifndef __restrict__
#define __restrict__ __restrict
#endif
#ifndef CUDARTAPI
#define CUDARTAPI
#endif
#ifndef CUDART_CB
#define CUDART_CB
#endif
#endif /* __PK_HOST_DEFINES_H */
