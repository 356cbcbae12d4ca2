/* Bundled declarations of cuda_fp8.h (8-bit floating point), for parsing
 * without a CUDA toolkit: the storage types, the enumerators, the
 * conversion functions and the __nv_fp8_e4m3 / __nv_fp8_e5m2 classes with
 * the conversions real programs use (from and to float, double, __half,
 * __nv_bfloat16 and the integer types).  Nothing here is compiled to code. */
#ifndef PK_BUNDLED_CUDA_FP8_H
#define PK_BUNDLED_CUDA_FP8_H
#include <cuda_fp16.h>
#include <cuda_bf16.h>

typedef unsigned char __nv_fp8_storage_t;
typedef unsigned short int __nv_fp8x2_storage_t;
typedef unsigned int __nv_fp8x4_storage_t;
typedef enum __nv_saturation_t { __NV_NOSAT, __NV_SATFINITE } __nv_saturation_t;
typedef enum __nv_fp8_interpretation_t { __NV_E4M3, __NV_E5M2 } __nv_fp8_interpretation_t;

__host__ __device__ __nv_fp8_storage_t __nv_cvt_float_to_fp8(float x, __nv_saturation_t saturate, __nv_fp8_interpretation_t fp8_interpretation);
__host__ __device__ __nv_fp8_storage_t __nv_cvt_double_to_fp8(double x, __nv_saturation_t saturate, __nv_fp8_interpretation_t fp8_interpretation);
__host__ __device__ __nv_fp8x2_storage_t __nv_cvt_float2_to_fp8x2(float2 x, __nv_saturation_t saturate, __nv_fp8_interpretation_t fp8_interpretation);
__host__ __device__ __nv_fp8_storage_t __nv_cvt_halfraw_to_fp8(__half_raw x, __nv_saturation_t saturate, __nv_fp8_interpretation_t fp8_interpretation);
__host__ __device__ __nv_fp8_storage_t __nv_cvt_bfloat16raw_to_fp8(__nv_bfloat16_raw x, __nv_saturation_t saturate, __nv_fp8_interpretation_t fp8_interpretation);
__host__ __device__ __half_raw __nv_cvt_fp8_to_halfraw(__nv_fp8_storage_t x, __nv_fp8_interpretation_t fp8_interpretation);
__host__ __device__ __half2_raw __nv_cvt_fp8x2_to_halfraw2(__nv_fp8x2_storage_t x, __nv_fp8_interpretation_t fp8_interpretation);
__host__ __device__ __nv_fp8x2_storage_t __nv_cvt_double2_to_fp8x2(double2 x, __nv_saturation_t saturate, __nv_fp8_interpretation_t fp8_interpretation);
__host__ __device__ __nv_fp8x2_storage_t __nv_cvt_halfraw2_to_fp8x2(__half2_raw x, __nv_saturation_t saturate, __nv_fp8_interpretation_t fp8_interpretation);
__host__ __device__ __nv_fp8x2_storage_t __nv_cvt_bfloat16raw2_to_fp8x2(__nv_bfloat162_raw x, __nv_saturation_t saturate, __nv_fp8_interpretation_t fp8_interpretation);

/* E8M0 scales (CUDA 12.8): rounding modes of device_types.h. */
enum cudaRoundMode { cudaRoundNearest, cudaRoundZero, cudaRoundPosInf, cudaRoundMinInf };
__host__ __device__ __nv_fp8_storage_t __nv_cvt_float_to_e8m0(float x, __nv_saturation_t saturate, enum cudaRoundMode rounding);
__host__ __device__ __nv_fp8x2_storage_t __nv_cvt_float2_to_e8m0x2(float2 x, __nv_saturation_t saturate, enum cudaRoundMode rounding);
__host__ __device__ __nv_fp8_storage_t __nv_cvt_double_to_e8m0(double x, __nv_saturation_t saturate, enum cudaRoundMode rounding);
__host__ __device__ __nv_fp8x2_storage_t __nv_cvt_double2_to_e8m0x2(double2 x, __nv_saturation_t saturate, enum cudaRoundMode rounding);
__host__ __device__ __nv_fp8_storage_t __nv_cvt_bfloat16raw_to_e8m0(__nv_bfloat16_raw x, __nv_saturation_t saturate, enum cudaRoundMode rounding);
__host__ __device__ __nv_fp8x2_storage_t __nv_cvt_bfloat162raw_to_e8m0x2(__nv_bfloat162_raw x, __nv_saturation_t saturate, enum cudaRoundMode rounding);
__host__ __device__ __nv_bfloat16_raw __nv_cvt_e8m0_to_bf16raw(__nv_fp8_storage_t x);
__host__ __device__ __nv_bfloat162_raw __nv_cvt_e8m0x2_to_bf162raw(__nv_fp8x2_storage_t x);
struct __nv_fp8_e8m0 {
  __nv_fp8_storage_t __x;
  __nv_fp8_e8m0() = default;
  __host__ __device__ explicit __nv_fp8_e8m0(float f);
  __host__ __device__ explicit operator float() const;
};
struct __nv_fp8x2_e8m0 {
  __nv_fp8x2_storage_t __x;
  __nv_fp8x2_e8m0() = default;
  __host__ __device__ explicit __nv_fp8x2_e8m0(float2 f);
  __host__ __device__ explicit operator float2() const;
};
struct __nv_fp8x4_e8m0 {
  __nv_fp8x4_storage_t __x;
  __nv_fp8x4_e8m0() = default;
  __host__ __device__ explicit __nv_fp8x4_e8m0(float4 f);
  __host__ __device__ explicit operator float4() const;
};

#define PK_FP8_CLASS(NAME, KIND)                                               \
  struct NAME {                                                                \
    __nv_fp8_storage_t __x;                                                    \
    NAME() = default;                                                          \
    __host__ __device__ explicit NAME(float f);                                \
    __host__ __device__ explicit NAME(double f);                               \
    __host__ __device__ explicit NAME(__half f);                               \
    __host__ __device__ explicit NAME(__nv_bfloat16 f);                        \
    __host__ __device__ explicit NAME(int v);                                  \
    __host__ __device__ explicit NAME(unsigned int v);                         \
    __host__ __device__ explicit NAME(long long v);                            \
    __host__ __device__ explicit NAME(unsigned long long v);                   \
    __host__ __device__ explicit NAME(short v);                                \
    __host__ __device__ explicit NAME(unsigned short v);                       \
    __host__ __device__ explicit operator float() const;                       \
    __host__ __device__ explicit operator double() const;                      \
    __host__ __device__ explicit operator __half() const;                      \
    __host__ __device__ explicit operator __nv_bfloat16() const;               \
    __host__ __device__ explicit operator int() const;                         \
    __host__ __device__ explicit operator unsigned int() const;                \
    __host__ __device__ explicit operator bool() const;                        \
  };
PK_FP8_CLASS(__nv_fp8_e4m3, __NV_E4M3)
PK_FP8_CLASS(__nv_fp8_e5m2, __NV_E5M2)
#undef PK_FP8_CLASS

#define PK_FP8X2_CLASS(NAME)                                                   \
  struct NAME {                                                                \
    __nv_fp8x2_storage_t __x;                                                  \
    NAME() = default;                                                          \
    __host__ __device__ explicit NAME(float2 f);                               \
    __host__ __device__ explicit NAME(__half2 f);                              \
    __host__ __device__ explicit NAME(__nv_bfloat162 f);                       \
    __host__ __device__ explicit operator float2() const;                      \
    __host__ __device__ explicit operator __half2() const;                     \
  };
PK_FP8X2_CLASS(__nv_fp8x2_e4m3)
PK_FP8X2_CLASS(__nv_fp8x2_e5m2)
#undef PK_FP8X2_CLASS

#define PK_FP8X4_CLASS(NAME)                                                   \
  struct NAME {                                                                \
    __nv_fp8x4_storage_t __x;                                                  \
    NAME() = default;                                                          \
    __host__ __device__ explicit NAME(float4 f);                               \
    __host__ __device__ explicit operator float4() const;                      \
  };
PK_FP8X4_CLASS(__nv_fp8x4_e4m3)
PK_FP8X4_CLASS(__nv_fp8x4_e5m2)
#undef PK_FP8X4_CLASS
#endif
