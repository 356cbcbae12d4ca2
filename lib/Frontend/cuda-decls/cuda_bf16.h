/*===- cuda_bf16.h - bfloat16 type and intrinsics --------------- ===*
 *
 * Declarations for parsing CUDA sources without a toolkit (see
 * __pk_cuda_prelude.h), following the bfloat16 precision intrinsics section of the CUDA math API
 * reference.  Functions are declared, not defined: the types carry their
 * bits as an unsigned short so that layout and size match, and conversions
 * are resolved by the declared constructors and operators.
 *===-----------------------------------------------------------------------===*/
#ifndef __PK_CUDA_BF16_H
#define __PK_CUDA_BF16_H

#include "vector_types.h"
#include "cuda_fp16.h"

#ifndef __host__
#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#endif
#define __PK_HD__ __host__ __device__

typedef struct __attribute__((aligned(2))) { unsigned short x; } __nv_bfloat16_raw;
typedef struct __attribute__((aligned(4))) { unsigned short x, y; } __nv_bfloat162_raw;

struct __attribute__((aligned(2))) __nv_bfloat16 {
protected:
  unsigned short __x;
public:
  __nv_bfloat16() = default;
  __PK_HD__ __nv_bfloat16(const __nv_bfloat16_raw &hr);
  __PK_HD__ __nv_bfloat16 &operator=(const __nv_bfloat16_raw &hr);
  __PK_HD__ operator __nv_bfloat16_raw() const;
  __PK_HD__ __nv_bfloat16(float f);
  __PK_HD__ __nv_bfloat16(double f);
  __PK_HD__ __nv_bfloat16(short val);
  __PK_HD__ __nv_bfloat16(unsigned short val);
  __PK_HD__ __nv_bfloat16(int val);
  __PK_HD__ __nv_bfloat16(unsigned int val);
  __PK_HD__ __nv_bfloat16(long long val);
  __PK_HD__ __nv_bfloat16(unsigned long long val);
  __PK_HD__ __nv_bfloat16 &operator=(float f);
  __PK_HD__ __nv_bfloat16 &operator=(double f);
  __PK_HD__ operator float() const;
  __PK_HD__ explicit operator bool() const;
  __PK_HD__ explicit operator short() const;
  __PK_HD__ explicit operator unsigned short() const;
  __PK_HD__ explicit operator int() const;
  __PK_HD__ explicit operator unsigned int() const;
  __PK_HD__ explicit operator long long() const;
  __PK_HD__ explicit operator unsigned long long() const;
};

struct __attribute__((aligned(4))) __nv_bfloat162 {
  __nv_bfloat16 x;
  __nv_bfloat16 y;
  __nv_bfloat162() = default;
  __PK_HD__ __nv_bfloat162(const __nv_bfloat16 &a, const __nv_bfloat16 &b) : x(a), y(b) {}
  __PK_HD__ __nv_bfloat162(const __nv_bfloat162_raw &h2r);
  __PK_HD__ __nv_bfloat162 &operator=(const __nv_bfloat162_raw &h2r);
  __PK_HD__ operator __nv_bfloat162_raw() const;
};

/* ---- Conversions ---- */
__PK_HD__ __nv_bfloat16 __float2bfloat16(const float a);
__PK_HD__ __nv_bfloat16 __float2bfloat16_rn(const float a);
__PK_HD__ __nv_bfloat16 __float2bfloat16_rz(const float a);
__PK_HD__ __nv_bfloat16 __float2bfloat16_rd(const float a);
__PK_HD__ __nv_bfloat16 __float2bfloat16_ru(const float a);
__PK_HD__ __nv_bfloat16 __double2bfloat16(const double a);
__PK_HD__ float __bfloat162float(const __nv_bfloat16 a);
__PK_HD__ __nv_bfloat162 __float2bfloat162_rn(const float a);
__PK_HD__ __nv_bfloat162 __floats2bfloat162_rn(const float a, const float b);
__PK_HD__ __nv_bfloat162 __float22bfloat162_rn(const float2 a);
__PK_HD__ float2 __bfloat1622float2(const __nv_bfloat162 a);
__PK_HD__ __nv_bfloat162 __halves2bfloat162(const __nv_bfloat16 a, const __nv_bfloat16 b);
__PK_HD__ __nv_bfloat162 __bfloat162bfloat162(const __nv_bfloat16 a);
__PK_HD__ __nv_bfloat162 make_bfloat162(const __nv_bfloat16 x, const __nv_bfloat16 y);
__PK_HD__ __nv_bfloat16 __short2bfloat16_rn(short i);
__PK_HD__ short __bfloat162short_rn(__nv_bfloat16 h);
__PK_HD__ __nv_bfloat16 __int2bfloat16_rn(int i);
__PK_HD__ __nv_bfloat16 __int2bfloat16_rz(int i);
__PK_HD__ int __bfloat162int_rn(__nv_bfloat16 h);
__PK_HD__ int __bfloat162int_rz(__nv_bfloat16 h);
__PK_HD__ __nv_bfloat16 __uint2bfloat16_rn(unsigned int i);
__PK_HD__ unsigned int __bfloat162uint_rn(__nv_bfloat16 h);
__PK_HD__ unsigned int __bfloat162uint_rz(__nv_bfloat16 h);
__PK_HD__ __nv_bfloat16 __ll2bfloat16_rn(long long i);
__PK_HD__ long long __bfloat162ll_rn(__nv_bfloat16 h);
__PK_HD__ long long __bfloat162ll_rz(__nv_bfloat16 h);
__PK_HD__ __nv_bfloat16 __ull2bfloat16_rn(unsigned long long i);
__PK_HD__ unsigned long long __bfloat162ull_rn(__nv_bfloat16 h);
__PK_HD__ short __bfloat16_as_short(__nv_bfloat16 h);
__PK_HD__ unsigned short __bfloat16_as_ushort(__nv_bfloat16 h);
__PK_HD__ __nv_bfloat16 __short_as_bfloat16(short i);
__PK_HD__ __nv_bfloat16 __ushort_as_bfloat16(unsigned short i);
__PK_HD__ float __low2float(__nv_bfloat162 a);
__PK_HD__ float __high2float(__nv_bfloat162 a);
__PK_HD__ __nv_bfloat16 __low2bfloat16(__nv_bfloat162 a);
__PK_HD__ __nv_bfloat16 __high2bfloat16(__nv_bfloat162 a);
__PK_HD__ __nv_bfloat162 __low2bfloat162(__nv_bfloat162 a);
__PK_HD__ __nv_bfloat162 __high2bfloat162(__nv_bfloat162 a);
__PK_HD__ __nv_bfloat162 __lows2bfloat162(__nv_bfloat162 a, __nv_bfloat162 b);
__PK_HD__ __nv_bfloat162 __highs2bfloat162(__nv_bfloat162 a, __nv_bfloat162 b);
__PK_HD__ __nv_bfloat162 __lowhigh2highlow(__nv_bfloat162 a);

/* ---- Arithmetic ---- */
__PK_HD__ __nv_bfloat16 __hadd(__nv_bfloat16 a, __nv_bfloat16 b);
__PK_HD__ __nv_bfloat16 __hsub(__nv_bfloat16 a, __nv_bfloat16 b);
__PK_HD__ __nv_bfloat16 __hmul(__nv_bfloat16 a, __nv_bfloat16 b);
__PK_HD__ __nv_bfloat16 __hdiv(__nv_bfloat16 a, __nv_bfloat16 b);
__PK_HD__ __nv_bfloat16 __hadd_sat(__nv_bfloat16 a, __nv_bfloat16 b);
__PK_HD__ __nv_bfloat16 __hsub_sat(__nv_bfloat16 a, __nv_bfloat16 b);
__PK_HD__ __nv_bfloat16 __hmul_sat(__nv_bfloat16 a, __nv_bfloat16 b);
__PK_HD__ __nv_bfloat16 __hadd_rn(__nv_bfloat16 a, __nv_bfloat16 b);
__PK_HD__ __nv_bfloat16 __hsub_rn(__nv_bfloat16 a, __nv_bfloat16 b);
__PK_HD__ __nv_bfloat16 __hmul_rn(__nv_bfloat16 a, __nv_bfloat16 b);
__PK_HD__ __nv_bfloat16 __hmax(__nv_bfloat16 a, __nv_bfloat16 b);
__PK_HD__ __nv_bfloat16 __hmin(__nv_bfloat16 a, __nv_bfloat16 b);
__PK_HD__ __nv_bfloat16 __hmax_nan(__nv_bfloat16 a, __nv_bfloat16 b);
__PK_HD__ __nv_bfloat16 __hmin_nan(__nv_bfloat16 a, __nv_bfloat16 b);
__PK_HD__ __nv_bfloat162 __hadd2(__nv_bfloat162 a, __nv_bfloat162 b);
__PK_HD__ __nv_bfloat162 __hsub2(__nv_bfloat162 a, __nv_bfloat162 b);
__PK_HD__ __nv_bfloat162 __hmul2(__nv_bfloat162 a, __nv_bfloat162 b);
__PK_HD__ __nv_bfloat162 __h2div(__nv_bfloat162 a, __nv_bfloat162 b);
__PK_HD__ __nv_bfloat162 __hadd2_sat(__nv_bfloat162 a, __nv_bfloat162 b);
__PK_HD__ __nv_bfloat162 __hsub2_sat(__nv_bfloat162 a, __nv_bfloat162 b);
__PK_HD__ __nv_bfloat162 __hmul2_sat(__nv_bfloat162 a, __nv_bfloat162 b);
__PK_HD__ __nv_bfloat162 __hadd2_rn(__nv_bfloat162 a, __nv_bfloat162 b);
__PK_HD__ __nv_bfloat162 __hsub2_rn(__nv_bfloat162 a, __nv_bfloat162 b);
__PK_HD__ __nv_bfloat162 __hmul2_rn(__nv_bfloat162 a, __nv_bfloat162 b);
__PK_HD__ __nv_bfloat162 __hmax2(__nv_bfloat162 a, __nv_bfloat162 b);
__PK_HD__ __nv_bfloat162 __hmin2(__nv_bfloat162 a, __nv_bfloat162 b);
__PK_HD__ __nv_bfloat162 __hmax2_nan(__nv_bfloat162 a, __nv_bfloat162 b);
__PK_HD__ __nv_bfloat162 __hmin2_nan(__nv_bfloat162 a, __nv_bfloat162 b);
__PK_HD__ __nv_bfloat16 __hfma(__nv_bfloat16 a, __nv_bfloat16 b, __nv_bfloat16 c);
__PK_HD__ __nv_bfloat16 __hfma_sat(__nv_bfloat16 a, __nv_bfloat16 b, __nv_bfloat16 c);
__PK_HD__ __nv_bfloat16 __hfma_relu(__nv_bfloat16 a, __nv_bfloat16 b, __nv_bfloat16 c);
__PK_HD__ __nv_bfloat162 __hfma2(__nv_bfloat162 a, __nv_bfloat162 b, __nv_bfloat162 c);
__PK_HD__ __nv_bfloat162 __hfma2_sat(__nv_bfloat162 a, __nv_bfloat162 b, __nv_bfloat162 c);
__PK_HD__ __nv_bfloat162 __hfma2_relu(__nv_bfloat162 a, __nv_bfloat162 b, __nv_bfloat162 c);
__PK_HD__ __nv_bfloat16 __hneg(__nv_bfloat16 a);
__PK_HD__ __nv_bfloat16 __habs(__nv_bfloat16 a);
__PK_HD__ __nv_bfloat162 __hneg2(__nv_bfloat162 a);
__PK_HD__ __nv_bfloat162 __habs2(__nv_bfloat162 a);

/* ---- Comparison ---- */
__PK_HD__ bool __heq(__nv_bfloat16 a, __nv_bfloat16 b);
__PK_HD__ bool __hne(__nv_bfloat16 a, __nv_bfloat16 b);
__PK_HD__ bool __hlt(__nv_bfloat16 a, __nv_bfloat16 b);
__PK_HD__ bool __hle(__nv_bfloat16 a, __nv_bfloat16 b);
__PK_HD__ bool __hgt(__nv_bfloat16 a, __nv_bfloat16 b);
__PK_HD__ bool __hge(__nv_bfloat16 a, __nv_bfloat16 b);
__PK_HD__ bool __hequ(__nv_bfloat16 a, __nv_bfloat16 b);
__PK_HD__ bool __hneu(__nv_bfloat16 a, __nv_bfloat16 b);
__PK_HD__ bool __hltu(__nv_bfloat16 a, __nv_bfloat16 b);
__PK_HD__ bool __hleu(__nv_bfloat16 a, __nv_bfloat16 b);
__PK_HD__ bool __hgtu(__nv_bfloat16 a, __nv_bfloat16 b);
__PK_HD__ bool __hgeu(__nv_bfloat16 a, __nv_bfloat16 b);
__PK_HD__ __nv_bfloat162 __heq2(__nv_bfloat162 a, __nv_bfloat162 b);
__PK_HD__ __nv_bfloat162 __hne2(__nv_bfloat162 a, __nv_bfloat162 b);
__PK_HD__ __nv_bfloat162 __hlt2(__nv_bfloat162 a, __nv_bfloat162 b);
__PK_HD__ __nv_bfloat162 __hle2(__nv_bfloat162 a, __nv_bfloat162 b);
__PK_HD__ __nv_bfloat162 __hgt2(__nv_bfloat162 a, __nv_bfloat162 b);
__PK_HD__ __nv_bfloat162 __hge2(__nv_bfloat162 a, __nv_bfloat162 b);
__PK_HD__ __nv_bfloat162 __hequ2(__nv_bfloat162 a, __nv_bfloat162 b);
__PK_HD__ __nv_bfloat162 __hneu2(__nv_bfloat162 a, __nv_bfloat162 b);
__PK_HD__ __nv_bfloat162 __hltu2(__nv_bfloat162 a, __nv_bfloat162 b);
__PK_HD__ __nv_bfloat162 __hleu2(__nv_bfloat162 a, __nv_bfloat162 b);
__PK_HD__ __nv_bfloat162 __hgtu2(__nv_bfloat162 a, __nv_bfloat162 b);
__PK_HD__ __nv_bfloat162 __hgeu2(__nv_bfloat162 a, __nv_bfloat162 b);
__PK_HD__ bool __hbeq2(__nv_bfloat162 a, __nv_bfloat162 b);
__PK_HD__ bool __hbne2(__nv_bfloat162 a, __nv_bfloat162 b);
__PK_HD__ bool __hblt2(__nv_bfloat162 a, __nv_bfloat162 b);
__PK_HD__ bool __hble2(__nv_bfloat162 a, __nv_bfloat162 b);
__PK_HD__ bool __hbgt2(__nv_bfloat162 a, __nv_bfloat162 b);
__PK_HD__ bool __hbge2(__nv_bfloat162 a, __nv_bfloat162 b);
__PK_HD__ bool __hbequ2(__nv_bfloat162 a, __nv_bfloat162 b);
__PK_HD__ bool __hbneu2(__nv_bfloat162 a, __nv_bfloat162 b);
__PK_HD__ bool __hbltu2(__nv_bfloat162 a, __nv_bfloat162 b);
__PK_HD__ bool __hbleu2(__nv_bfloat162 a, __nv_bfloat162 b);
__PK_HD__ bool __hbgtu2(__nv_bfloat162 a, __nv_bfloat162 b);
__PK_HD__ bool __hbgeu2(__nv_bfloat162 a, __nv_bfloat162 b);
__PK_HD__ bool __hisnan(__nv_bfloat16 a);
__PK_HD__ int __hisinf(__nv_bfloat16 a);
__PK_HD__ __nv_bfloat162 __hisnan2(__nv_bfloat162 a);

/* ---- Math ---- */
__PK_HD__ __nv_bfloat16 hsqrt(const __nv_bfloat16 a);
__PK_HD__ __nv_bfloat162 h2sqrt(const __nv_bfloat162 a);
__PK_HD__ __nv_bfloat16 hrsqrt(const __nv_bfloat16 a);
__PK_HD__ __nv_bfloat162 h2rsqrt(const __nv_bfloat162 a);
__PK_HD__ __nv_bfloat16 hrcp(const __nv_bfloat16 a);
__PK_HD__ __nv_bfloat162 h2rcp(const __nv_bfloat162 a);
__PK_HD__ __nv_bfloat16 hexp(const __nv_bfloat16 a);
__PK_HD__ __nv_bfloat162 h2exp(const __nv_bfloat162 a);
__PK_HD__ __nv_bfloat16 hexp2(const __nv_bfloat16 a);
__PK_HD__ __nv_bfloat162 h2exp2(const __nv_bfloat162 a);
__PK_HD__ __nv_bfloat16 hexp10(const __nv_bfloat16 a);
__PK_HD__ __nv_bfloat162 h2exp10(const __nv_bfloat162 a);
__PK_HD__ __nv_bfloat16 hlog(const __nv_bfloat16 a);
__PK_HD__ __nv_bfloat162 h2log(const __nv_bfloat162 a);
__PK_HD__ __nv_bfloat16 hlog2(const __nv_bfloat16 a);
__PK_HD__ __nv_bfloat162 h2log2(const __nv_bfloat162 a);
__PK_HD__ __nv_bfloat16 hlog10(const __nv_bfloat16 a);
__PK_HD__ __nv_bfloat162 h2log10(const __nv_bfloat162 a);
__PK_HD__ __nv_bfloat16 hsin(const __nv_bfloat16 a);
__PK_HD__ __nv_bfloat162 h2sin(const __nv_bfloat162 a);
__PK_HD__ __nv_bfloat16 hcos(const __nv_bfloat16 a);
__PK_HD__ __nv_bfloat162 h2cos(const __nv_bfloat162 a);
__PK_HD__ __nv_bfloat16 htanh(const __nv_bfloat16 a);
__PK_HD__ __nv_bfloat162 h2tanh(const __nv_bfloat162 a);
__PK_HD__ __nv_bfloat16 htrunc(const __nv_bfloat16 a);
__PK_HD__ __nv_bfloat162 h2trunc(const __nv_bfloat162 a);
__PK_HD__ __nv_bfloat16 hceil(const __nv_bfloat16 a);
__PK_HD__ __nv_bfloat162 h2ceil(const __nv_bfloat162 a);
__PK_HD__ __nv_bfloat16 hfloor(const __nv_bfloat16 a);
__PK_HD__ __nv_bfloat162 h2floor(const __nv_bfloat162 a);
__PK_HD__ __nv_bfloat16 hrint(const __nv_bfloat16 a);
__PK_HD__ __nv_bfloat162 h2rint(const __nv_bfloat162 a);

/* ---- Operators ---- */
__PK_HD__ __nv_bfloat16 operator+(const __nv_bfloat16 &a, const __nv_bfloat16 &b);
__PK_HD__ __nv_bfloat16 &operator+=(__nv_bfloat16 &a, const __nv_bfloat16 &b);
__PK_HD__ __nv_bfloat16 operator-(const __nv_bfloat16 &a, const __nv_bfloat16 &b);
__PK_HD__ __nv_bfloat16 &operator-=(__nv_bfloat16 &a, const __nv_bfloat16 &b);
__PK_HD__ __nv_bfloat16 operator*(const __nv_bfloat16 &a, const __nv_bfloat16 &b);
__PK_HD__ __nv_bfloat16 &operator*=(__nv_bfloat16 &a, const __nv_bfloat16 &b);
__PK_HD__ __nv_bfloat16 operator/(const __nv_bfloat16 &a, const __nv_bfloat16 &b);
__PK_HD__ __nv_bfloat16 &operator/=(__nv_bfloat16 &a, const __nv_bfloat16 &b);
__PK_HD__ __nv_bfloat16 operator+(const __nv_bfloat16 &a);
__PK_HD__ __nv_bfloat16 operator-(const __nv_bfloat16 &a);
__PK_HD__ __nv_bfloat16 &operator++(__nv_bfloat16 &a);
__PK_HD__ __nv_bfloat16 &operator--(__nv_bfloat16 &a);
__PK_HD__ __nv_bfloat16 operator++(__nv_bfloat16 &a, int);
__PK_HD__ __nv_bfloat16 operator--(__nv_bfloat16 &a, int);
__PK_HD__ bool operator==(const __nv_bfloat16 &a, const __nv_bfloat16 &b);
__PK_HD__ bool operator!=(const __nv_bfloat16 &a, const __nv_bfloat16 &b);
__PK_HD__ bool operator<(const __nv_bfloat16 &a, const __nv_bfloat16 &b);
__PK_HD__ bool operator>(const __nv_bfloat16 &a, const __nv_bfloat16 &b);
__PK_HD__ bool operator<=(const __nv_bfloat16 &a, const __nv_bfloat16 &b);
__PK_HD__ bool operator>=(const __nv_bfloat16 &a, const __nv_bfloat16 &b);
__PK_HD__ __nv_bfloat162 operator+(const __nv_bfloat162 &a, const __nv_bfloat162 &b);
__PK_HD__ __nv_bfloat162 &operator+=(__nv_bfloat162 &a, const __nv_bfloat162 &b);
__PK_HD__ __nv_bfloat162 operator-(const __nv_bfloat162 &a, const __nv_bfloat162 &b);
__PK_HD__ __nv_bfloat162 &operator-=(__nv_bfloat162 &a, const __nv_bfloat162 &b);
__PK_HD__ __nv_bfloat162 operator*(const __nv_bfloat162 &a, const __nv_bfloat162 &b);
__PK_HD__ __nv_bfloat162 &operator*=(__nv_bfloat162 &a, const __nv_bfloat162 &b);
__PK_HD__ __nv_bfloat162 operator/(const __nv_bfloat162 &a, const __nv_bfloat162 &b);
__PK_HD__ __nv_bfloat162 &operator/=(__nv_bfloat162 &a, const __nv_bfloat162 &b);
__PK_HD__ __nv_bfloat162 operator+(const __nv_bfloat162 &a);
__PK_HD__ __nv_bfloat162 operator-(const __nv_bfloat162 &a);
__PK_HD__ __nv_bfloat162 &operator++(__nv_bfloat162 &a);
__PK_HD__ __nv_bfloat162 &operator--(__nv_bfloat162 &a);
__PK_HD__ __nv_bfloat162 operator++(__nv_bfloat162 &a, int);
__PK_HD__ __nv_bfloat162 operator--(__nv_bfloat162 &a, int);
__PK_HD__ bool operator==(const __nv_bfloat162 &a, const __nv_bfloat162 &b);
__PK_HD__ bool operator!=(const __nv_bfloat162 &a, const __nv_bfloat162 &b);
__PK_HD__ bool operator<(const __nv_bfloat162 &a, const __nv_bfloat162 &b);
__PK_HD__ bool operator>(const __nv_bfloat162 &a, const __nv_bfloat162 &b);
__PK_HD__ bool operator<=(const __nv_bfloat162 &a, const __nv_bfloat162 &b);
__PK_HD__ bool operator>=(const __nv_bfloat162 &a, const __nv_bfloat162 &b);

/* ---- Warp shuffles, loads and atomics on these types ---- */
__device__ __nv_bfloat16 __shfl_sync(unsigned int mask, __nv_bfloat16 var, int srcLane, int width = 32);
__device__ __nv_bfloat16 __shfl_up_sync(unsigned int mask, __nv_bfloat16 var, unsigned int delta, int width = 32);
__device__ __nv_bfloat16 __shfl_down_sync(unsigned int mask, __nv_bfloat16 var, unsigned int delta, int width = 32);
__device__ __nv_bfloat16 __shfl_xor_sync(unsigned int mask, __nv_bfloat16 var, int laneMask, int width = 32);
__device__ __nv_bfloat16 __ldg(const __nv_bfloat16 *ptr);
__device__ __nv_bfloat16 __ldcg(const __nv_bfloat16 *ptr);
__device__ __nv_bfloat16 __ldca(const __nv_bfloat16 *ptr);
__device__ __nv_bfloat16 __ldcs(const __nv_bfloat16 *ptr);
__device__ __nv_bfloat16 __ldlu(const __nv_bfloat16 *ptr);
__device__ __nv_bfloat16 __ldcv(const __nv_bfloat16 *ptr);
__device__ void __stwb(__nv_bfloat16 *ptr, __nv_bfloat16 value);
__device__ void __stcg(__nv_bfloat16 *ptr, __nv_bfloat16 value);
__device__ void __stcs(__nv_bfloat16 *ptr, __nv_bfloat16 value);
__device__ void __stwt(__nv_bfloat16 *ptr, __nv_bfloat16 value);
__device__ __nv_bfloat16 atomicAdd(__nv_bfloat16 *address, __nv_bfloat16 val);
__device__ __nv_bfloat162 __shfl_sync(unsigned int mask, __nv_bfloat162 var, int srcLane, int width = 32);
__device__ __nv_bfloat162 __shfl_up_sync(unsigned int mask, __nv_bfloat162 var, unsigned int delta, int width = 32);
__device__ __nv_bfloat162 __shfl_down_sync(unsigned int mask, __nv_bfloat162 var, unsigned int delta, int width = 32);
__device__ __nv_bfloat162 __shfl_xor_sync(unsigned int mask, __nv_bfloat162 var, int laneMask, int width = 32);
__device__ __nv_bfloat162 __ldg(const __nv_bfloat162 *ptr);
__device__ __nv_bfloat162 __ldcg(const __nv_bfloat162 *ptr);
__device__ __nv_bfloat162 __ldca(const __nv_bfloat162 *ptr);
__device__ __nv_bfloat162 __ldcs(const __nv_bfloat162 *ptr);
__device__ __nv_bfloat162 __ldlu(const __nv_bfloat162 *ptr);
__device__ __nv_bfloat162 __ldcv(const __nv_bfloat162 *ptr);
__device__ void __stwb(__nv_bfloat162 *ptr, __nv_bfloat162 value);
__device__ void __stcg(__nv_bfloat162 *ptr, __nv_bfloat162 value);
__device__ void __stcs(__nv_bfloat162 *ptr, __nv_bfloat162 value);
__device__ void __stwt(__nv_bfloat162 *ptr, __nv_bfloat162 value);
__device__ __nv_bfloat162 atomicAdd(__nv_bfloat162 *address, __nv_bfloat162 val);

#undef __PK_HD__
typedef __nv_bfloat16 nv_bfloat16;
typedef __nv_bfloat162 nv_bfloat162;

#endif /* __PK_CUDA_BF16_H */
