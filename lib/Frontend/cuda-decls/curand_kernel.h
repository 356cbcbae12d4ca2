/*===- curand_kernel.h - device-side random number generation --------------===*
 *
 * Declarations for parsing CUDA sources without a toolkit (see
 * __pk_cuda_prelude.h), following the cuRAND device API reference: the
 * common generator states with curand_init and the distribution functions.
 *===-----------------------------------------------------------------------===*/
#ifndef __PK_CURAND_KERNEL_H
#define __PK_CURAND_KERNEL_H
/* the guard of curand_kernel.h, which code tests to see the device API */
#define CURAND_KERNEL_H_

#include "vector_types.h"
#include "curand.h"

struct curandStateXORWOW { unsigned int d, v[5]; int boxmuller_flag; int boxmuller_flag_double;
                           float boxmuller_extra; double boxmuller_extra_double; };
struct curandStatePhilox4_32_10 { uint4 ctr; uint4 output; uint2 key; unsigned int STATE;
                                  int boxmuller_flag; int boxmuller_flag_double;
                                  float boxmuller_extra; double boxmuller_extra_double; };
struct curandStateMRG32k3a { unsigned int s1[3]; unsigned int s2[3]; int boxmuller_flag;
                             int boxmuller_flag_double; float boxmuller_extra;
                             double boxmuller_extra_double; };
typedef struct curandStateXORWOW curandStateXORWOW_t;
typedef struct curandStateXORWOW curandState_t;
typedef struct curandStateXORWOW curandState;
typedef struct curandStatePhilox4_32_10 curandStatePhilox4_32_10_t;
typedef struct curandStateMRG32k3a curandStateMRG32k3a_t;

#define __PK_CURAND_STATE_API(S)                                                   \
  __device__ void curand_init(unsigned long long seed, unsigned long long subsequence, \
                              unsigned long long offset, S *state);                \
  __device__ unsigned int curand(S *state);                                        \
  __device__ float curand_uniform(S *state);                                       \
  __device__ double curand_uniform_double(S *state);                               \
  __device__ float curand_normal(S *state);                                        \
  __device__ double curand_normal_double(S *state);                                \
  __device__ float2 curand_normal2(S *state);                                      \
  __device__ double2 curand_normal2_double(S *state);                              \
  __device__ float curand_log_normal(S *state, float mean, float stddev);          \
  __device__ double curand_log_normal_double(S *state, double mean, double stddev); \
  __device__ float2 curand_log_normal2(S *state, float mean, float stddev);         \
  __device__ unsigned int curand_poisson(S *state, double lambda);                 \
  __device__ void skipahead(unsigned long long n, S *state);                       \
  __device__ void skipahead_sequence(unsigned long long n, S *state);

__PK_CURAND_STATE_API(curandStateXORWOW_t)
__PK_CURAND_STATE_API(curandStatePhilox4_32_10_t)
__PK_CURAND_STATE_API(curandStateMRG32k3a_t)
#undef __PK_CURAND_STATE_API

__device__ uint4 curand4(curandStatePhilox4_32_10_t *state);
__device__ float4 curand_uniform4(curandStatePhilox4_32_10_t *state);
__device__ float4 curand_normal4(curandStatePhilox4_32_10_t *state);
__device__ double2 curand_uniform2_double(curandStatePhilox4_32_10_t *state);
__device__ double4 curand_uniform4_double(curandStatePhilox4_32_10_t *state);
__device__ double4 curand_normal4_double(curandStatePhilox4_32_10_t *state);
__device__ float4 curand_log_normal4(curandStatePhilox4_32_10_t *state, float mean, float stddev);
__device__ uint4 curand_poisson4(curandStatePhilox4_32_10_t *state, double lambda);

#endif /* __PK_CURAND_KERNEL_H */
