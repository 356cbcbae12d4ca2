/*===- cuda_fp16.h - half-precision type and intrinsics ------- ===*
 *
 * Declarations for parsing CUDA sources without a toolkit (see
 * __pk_cuda_prelude.h), following the half precision intrinsics section of the CUDA math API
 * reference.  Functions are declared, not defined: the types carry their
 * bits as an unsigned short so that layout and size match, and conversions
 * are resolved by the declared constructors and operators.
 *===-----------------------------------------------------------------------===*/
#ifndef __PK_CUDA_FP16_H
#define __PK_CUDA_FP16_H

#include "vector_types.h"

#ifndef __host__
#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#endif
#define __PK_HD__ __host__ __device__

typedef struct __attribute__((aligned(2))) { unsigned short x; } __half_raw;
typedef struct __attribute__((aligned(4))) { unsigned short x, y; } __half2_raw;

struct __attribute__((aligned(2))) __half {
protected:
  unsigned short __x;
public:
  __half() = default;
  __PK_HD__ __half(const __half_raw &hr);
  __PK_HD__ __half &operator=(const __half_raw &hr);
  __PK_HD__ operator __half_raw() const;
  __PK_HD__ __half(float f);
  __PK_HD__ __half(double f);
  __PK_HD__ __half(short val);
  __PK_HD__ __half(unsigned short val);
  __PK_HD__ __half(int val);
  __PK_HD__ __half(unsigned int val);
  __PK_HD__ __half(long long val);
  __PK_HD__ __half(unsigned long long val);
  __PK_HD__ __half &operator=(float f);
  __PK_HD__ __half &operator=(double f);
  __PK_HD__ operator float() const;
  __PK_HD__ explicit operator bool() const;
  __PK_HD__ explicit operator short() const;
  __PK_HD__ explicit operator unsigned short() const;
  __PK_HD__ explicit operator int() const;
  __PK_HD__ explicit operator unsigned int() const;
  __PK_HD__ explicit operator long long() const;
  __PK_HD__ explicit operator unsigned long long() const;
};

struct __attribute__((aligned(4))) __half2 {
  __half x;
  __half y;
  __half2() = default;
  __PK_HD__ __half2(const __half &a, const __half &b) : x(a), y(b) {}
  __PK_HD__ __half2(const __half2_raw &h2r);
  __PK_HD__ __half2 &operator=(const __half2_raw &h2r);
  __PK_HD__ operator __half2_raw() const;
};

/* ---- Conversions ---- */
__PK_HD__ __half __float2half(const float a);
__PK_HD__ __half __float2half_rn(const float a);
__PK_HD__ __half __float2half_rz(const float a);
__PK_HD__ __half __float2half_rd(const float a);
__PK_HD__ __half __float2half_ru(const float a);
__PK_HD__ __half __double2half(const double a);
__PK_HD__ float __half2float(const __half a);
__PK_HD__ __half2 __float2half2_rn(const float a);
__PK_HD__ __half2 __floats2half2_rn(const float a, const float b);
__PK_HD__ __half2 __float22half2_rn(const float2 a);
__PK_HD__ float2 __half22float2(const __half2 a);
__PK_HD__ __half2 __halves2half2(const __half a, const __half b);
__PK_HD__ __half2 __half2half2(const __half a);
__PK_HD__ __half2 make_half2(const __half x, const __half y);
__PK_HD__ __half __short2half_rn(short i);
__PK_HD__ short __half2short_rn(__half h);
__PK_HD__ __half __int2half_rn(int i);
__PK_HD__ __half __int2half_rz(int i);
__PK_HD__ int __half2int_rn(__half h);
__PK_HD__ int __half2int_rz(__half h);
__PK_HD__ __half __uint2half_rn(unsigned int i);
__PK_HD__ unsigned int __half2uint_rn(__half h);
__PK_HD__ unsigned int __half2uint_rz(__half h);
__PK_HD__ __half __ll2half_rn(long long i);
__PK_HD__ long long __half2ll_rn(__half h);
__PK_HD__ long long __half2ll_rz(__half h);
__PK_HD__ __half __ull2half_rn(unsigned long long i);
__PK_HD__ unsigned long long __half2ull_rn(__half h);
__PK_HD__ short __half_as_short(__half h);
__PK_HD__ unsigned short __half_as_ushort(__half h);
__PK_HD__ __half __short_as_half(short i);
__PK_HD__ __half __ushort_as_half(unsigned short i);
__PK_HD__ float __low2float(__half2 a);
__PK_HD__ float __high2float(__half2 a);
__PK_HD__ __half __low2half(__half2 a);
__PK_HD__ __half __high2half(__half2 a);
__PK_HD__ __half2 __low2half2(__half2 a);
__PK_HD__ __half2 __high2half2(__half2 a);
__PK_HD__ __half2 __lows2half2(__half2 a, __half2 b);
__PK_HD__ __half2 __highs2half2(__half2 a, __half2 b);
__PK_HD__ __half2 __lowhigh2highlow(__half2 a);

/* ---- Arithmetic ---- */
__PK_HD__ __half __hadd(__half a, __half b);
__PK_HD__ __half __hsub(__half a, __half b);
__PK_HD__ __half __hmul(__half a, __half b);
__PK_HD__ __half __hdiv(__half a, __half b);
__PK_HD__ __half __hadd_sat(__half a, __half b);
__PK_HD__ __half __hsub_sat(__half a, __half b);
__PK_HD__ __half __hmul_sat(__half a, __half b);
__PK_HD__ __half __hadd_rn(__half a, __half b);
__PK_HD__ __half __hsub_rn(__half a, __half b);
__PK_HD__ __half __hmul_rn(__half a, __half b);
__PK_HD__ __half __hmax(__half a, __half b);
__PK_HD__ __half __hmin(__half a, __half b);
__PK_HD__ __half __hmax_nan(__half a, __half b);
__PK_HD__ __half __hmin_nan(__half a, __half b);
__PK_HD__ __half2 __hadd2(__half2 a, __half2 b);
__PK_HD__ __half2 __hsub2(__half2 a, __half2 b);
__PK_HD__ __half2 __hmul2(__half2 a, __half2 b);
__PK_HD__ __half2 __h2div(__half2 a, __half2 b);
__PK_HD__ __half2 __hadd2_sat(__half2 a, __half2 b);
__PK_HD__ __half2 __hsub2_sat(__half2 a, __half2 b);
__PK_HD__ __half2 __hmul2_sat(__half2 a, __half2 b);
__PK_HD__ __half2 __hadd2_rn(__half2 a, __half2 b);
__PK_HD__ __half2 __hsub2_rn(__half2 a, __half2 b);
__PK_HD__ __half2 __hmul2_rn(__half2 a, __half2 b);
__PK_HD__ __half2 __hmax2(__half2 a, __half2 b);
__PK_HD__ __half2 __hmin2(__half2 a, __half2 b);
__PK_HD__ __half2 __hmax2_nan(__half2 a, __half2 b);
__PK_HD__ __half2 __hmin2_nan(__half2 a, __half2 b);
__PK_HD__ __half __hfma(__half a, __half b, __half c);
__PK_HD__ __half __hfma_sat(__half a, __half b, __half c);
__PK_HD__ __half __hfma_relu(__half a, __half b, __half c);
__PK_HD__ __half2 __hfma2(__half2 a, __half2 b, __half2 c);
__PK_HD__ __half2 __hfma2_sat(__half2 a, __half2 b, __half2 c);
__PK_HD__ __half2 __hfma2_relu(__half2 a, __half2 b, __half2 c);
__PK_HD__ __half __hneg(__half a);
__PK_HD__ __half __habs(__half a);
__PK_HD__ __half2 __hneg2(__half2 a);
__PK_HD__ __half2 __habs2(__half2 a);

/* ---- Comparison ---- */
__PK_HD__ bool __heq(__half a, __half b);
__PK_HD__ bool __hne(__half a, __half b);
__PK_HD__ bool __hlt(__half a, __half b);
__PK_HD__ bool __hle(__half a, __half b);
__PK_HD__ bool __hgt(__half a, __half b);
__PK_HD__ bool __hge(__half a, __half b);
__PK_HD__ bool __hequ(__half a, __half b);
__PK_HD__ bool __hneu(__half a, __half b);
__PK_HD__ bool __hltu(__half a, __half b);
__PK_HD__ bool __hleu(__half a, __half b);
__PK_HD__ bool __hgtu(__half a, __half b);
__PK_HD__ bool __hgeu(__half a, __half b);
__PK_HD__ __half2 __heq2(__half2 a, __half2 b);
__PK_HD__ __half2 __hne2(__half2 a, __half2 b);
__PK_HD__ __half2 __hlt2(__half2 a, __half2 b);
__PK_HD__ __half2 __hle2(__half2 a, __half2 b);
__PK_HD__ __half2 __hgt2(__half2 a, __half2 b);
__PK_HD__ __half2 __hge2(__half2 a, __half2 b);
__PK_HD__ __half2 __hequ2(__half2 a, __half2 b);
__PK_HD__ __half2 __hneu2(__half2 a, __half2 b);
__PK_HD__ __half2 __hltu2(__half2 a, __half2 b);
__PK_HD__ __half2 __hleu2(__half2 a, __half2 b);
__PK_HD__ __half2 __hgtu2(__half2 a, __half2 b);
__PK_HD__ __half2 __hgeu2(__half2 a, __half2 b);
__PK_HD__ bool __hbeq2(__half2 a, __half2 b);
__PK_HD__ bool __hbne2(__half2 a, __half2 b);
__PK_HD__ bool __hblt2(__half2 a, __half2 b);
__PK_HD__ bool __hble2(__half2 a, __half2 b);
__PK_HD__ bool __hbgt2(__half2 a, __half2 b);
__PK_HD__ bool __hbge2(__half2 a, __half2 b);
__PK_HD__ bool __hbequ2(__half2 a, __half2 b);
__PK_HD__ bool __hbneu2(__half2 a, __half2 b);
__PK_HD__ bool __hbltu2(__half2 a, __half2 b);
__PK_HD__ bool __hbleu2(__half2 a, __half2 b);
__PK_HD__ bool __hbgtu2(__half2 a, __half2 b);
__PK_HD__ bool __hbgeu2(__half2 a, __half2 b);
__PK_HD__ bool __hisnan(__half a);
__PK_HD__ int __hisinf(__half a);
__PK_HD__ __half2 __hisnan2(__half2 a);

/* ---- Math ---- */
__PK_HD__ __half hsqrt(const __half a);
__PK_HD__ __half2 h2sqrt(const __half2 a);
__PK_HD__ __half hrsqrt(const __half a);
__PK_HD__ __half2 h2rsqrt(const __half2 a);
__PK_HD__ __half hrcp(const __half a);
__PK_HD__ __half2 h2rcp(const __half2 a);
__PK_HD__ __half hexp(const __half a);
__PK_HD__ __half2 h2exp(const __half2 a);
__PK_HD__ __half hexp2(const __half a);
__PK_HD__ __half2 h2exp2(const __half2 a);
__PK_HD__ __half hexp10(const __half a);
__PK_HD__ __half2 h2exp10(const __half2 a);
__PK_HD__ __half hlog(const __half a);
__PK_HD__ __half2 h2log(const __half2 a);
__PK_HD__ __half hlog2(const __half a);
__PK_HD__ __half2 h2log2(const __half2 a);
__PK_HD__ __half hlog10(const __half a);
__PK_HD__ __half2 h2log10(const __half2 a);
__PK_HD__ __half hsin(const __half a);
__PK_HD__ __half2 h2sin(const __half2 a);
__PK_HD__ __half hcos(const __half a);
__PK_HD__ __half2 h2cos(const __half2 a);
__PK_HD__ __half htanh(const __half a);
__PK_HD__ __half2 h2tanh(const __half2 a);
__PK_HD__ __half htrunc(const __half a);
__PK_HD__ __half2 h2trunc(const __half2 a);
__PK_HD__ __half hceil(const __half a);
__PK_HD__ __half2 h2ceil(const __half2 a);
__PK_HD__ __half hfloor(const __half a);
__PK_HD__ __half2 h2floor(const __half2 a);
__PK_HD__ __half hrint(const __half a);
__PK_HD__ __half2 h2rint(const __half2 a);

/* ---- Operators ---- */
__PK_HD__ __half operator+(const __half &a, const __half &b);
__PK_HD__ __half &operator+=(__half &a, const __half &b);
__PK_HD__ __half operator-(const __half &a, const __half &b);
__PK_HD__ __half &operator-=(__half &a, const __half &b);
__PK_HD__ __half operator*(const __half &a, const __half &b);
__PK_HD__ __half &operator*=(__half &a, const __half &b);
__PK_HD__ __half operator/(const __half &a, const __half &b);
__PK_HD__ __half &operator/=(__half &a, const __half &b);
__PK_HD__ __half operator+(const __half &a);
__PK_HD__ __half operator-(const __half &a);
__PK_HD__ __half &operator++(__half &a);
__PK_HD__ __half &operator--(__half &a);
__PK_HD__ __half operator++(__half &a, int);
__PK_HD__ __half operator--(__half &a, int);
__PK_HD__ bool operator==(const __half &a, const __half &b);
__PK_HD__ bool operator!=(const __half &a, const __half &b);
__PK_HD__ bool operator<(const __half &a, const __half &b);
__PK_HD__ bool operator>(const __half &a, const __half &b);
__PK_HD__ bool operator<=(const __half &a, const __half &b);
__PK_HD__ bool operator>=(const __half &a, const __half &b);
__PK_HD__ __half2 operator+(const __half2 &a, const __half2 &b);
__PK_HD__ __half2 &operator+=(__half2 &a, const __half2 &b);
__PK_HD__ __half2 operator-(const __half2 &a, const __half2 &b);
__PK_HD__ __half2 &operator-=(__half2 &a, const __half2 &b);
__PK_HD__ __half2 operator*(const __half2 &a, const __half2 &b);
__PK_HD__ __half2 &operator*=(__half2 &a, const __half2 &b);
__PK_HD__ __half2 operator/(const __half2 &a, const __half2 &b);
__PK_HD__ __half2 &operator/=(__half2 &a, const __half2 &b);
__PK_HD__ __half2 operator+(const __half2 &a);
__PK_HD__ __half2 operator-(const __half2 &a);
__PK_HD__ __half2 &operator++(__half2 &a);
__PK_HD__ __half2 &operator--(__half2 &a);
__PK_HD__ __half2 operator++(__half2 &a, int);
__PK_HD__ __half2 operator--(__half2 &a, int);
__PK_HD__ bool operator==(const __half2 &a, const __half2 &b);
__PK_HD__ bool operator!=(const __half2 &a, const __half2 &b);
__PK_HD__ bool operator<(const __half2 &a, const __half2 &b);
__PK_HD__ bool operator>(const __half2 &a, const __half2 &b);
__PK_HD__ bool operator<=(const __half2 &a, const __half2 &b);
__PK_HD__ bool operator>=(const __half2 &a, const __half2 &b);

/* ---- Warp shuffles, loads and atomics on these types ---- */
__device__ __half __shfl_sync(unsigned int mask, __half var, int srcLane, int width = 32);
__device__ __half __shfl_up_sync(unsigned int mask, __half var, unsigned int delta, int width = 32);
__device__ __half __shfl_down_sync(unsigned int mask, __half var, unsigned int delta, int width = 32);
__device__ __half __shfl_xor_sync(unsigned int mask, __half var, int laneMask, int width = 32);
__device__ __half __ldg(const __half *ptr);
__device__ __half __ldcg(const __half *ptr);
__device__ __half __ldca(const __half *ptr);
__device__ __half __ldcs(const __half *ptr);
__device__ __half __ldlu(const __half *ptr);
__device__ __half __ldcv(const __half *ptr);
__device__ void __stwb(__half *ptr, __half value);
__device__ void __stcg(__half *ptr, __half value);
__device__ void __stcs(__half *ptr, __half value);
__device__ void __stwt(__half *ptr, __half value);
__device__ __half atomicAdd(__half *address, __half val);
__device__ __half2 __shfl_sync(unsigned int mask, __half2 var, int srcLane, int width = 32);
__device__ __half2 __shfl_up_sync(unsigned int mask, __half2 var, unsigned int delta, int width = 32);
__device__ __half2 __shfl_down_sync(unsigned int mask, __half2 var, unsigned int delta, int width = 32);
__device__ __half2 __shfl_xor_sync(unsigned int mask, __half2 var, int laneMask, int width = 32);
__device__ __half2 __ldg(const __half2 *ptr);
__device__ __half2 __ldcg(const __half2 *ptr);
__device__ __half2 __ldca(const __half2 *ptr);
__device__ __half2 __ldcs(const __half2 *ptr);
__device__ __half2 __ldlu(const __half2 *ptr);
__device__ __half2 __ldcv(const __half2 *ptr);
__device__ void __stwb(__half2 *ptr, __half2 value);
__device__ void __stcg(__half2 *ptr, __half2 value);
__device__ void __stcs(__half2 *ptr, __half2 value);
__device__ void __stwt(__half2 *ptr, __half2 value);
__device__ __half2 atomicAdd(__half2 *address, __half2 val);

#undef __PK_HD__
typedef __half half;
typedef __half2 half2;

#endif /* __PK_CUDA_FP16_H */
