//===- fp16.h - half and bfloat16 types -------------------------*- C++ -*-===//
// Rules: none (emulator runtime)
//
// pkemu: __half / __half2 (cuda_fp16.h, hip_fp16.h) and __nv_bfloat16 /
// __nv_bfloat162 / hip_bfloat16 (cuda_bf16.h, hip_bf16.h). Arithmetic is done
// in float and rounded to nearest even.
//
//===----------------------------------------------------------------------===//
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>

#include "vector_types.h" // pkemu/vector_types.h next to this file (quoted: looked up here first)

namespace pkemu {
namespace detail {
PKEMU_HD inline unsigned short f2h(float f) {
  _Float16 h = (_Float16)f;
  unsigned short r;
  std::memcpy(&r, &h, 2);
  return r;
}
PKEMU_HD inline float h2f(unsigned short b) {
  _Float16 h;
  std::memcpy(&h, &b, 2);
  return (float)h;
}
PKEMU_HD inline unsigned short f2bf(float f) {
  std::uint32_t x;
  std::memcpy(&x, &f, 4);
  if ((x & 0x7fffffffu) > 0x7f800000u)
    return 0x7fff;
  x += 0x7fffu + ((x >> 16) & 1u);
  return (unsigned short)(x >> 16);
}
PKEMU_HD inline unsigned short f2bf_rz(float f) {
  std::uint32_t x;
  std::memcpy(&x, &f, 4);
  if ((x & 0x7fffffffu) > 0x7f800000u)
    return 0x7fff;
  return (unsigned short)(x >> 16);
}
PKEMU_HD inline float bf2f(unsigned short b) {
  std::uint32_t x = (std::uint32_t)b << 16;
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}
} // namespace detail
} // namespace pkemu

// ---------------------------------------------------------------------------------------------
// half
struct __half_raw {
  unsigned short x;
};
struct __half2_raw {
  unsigned short x, y;
};

struct __attribute__((aligned(2))) __half {
  unsigned short __x;
  __half() = default;
  PKEMU_HD __half(const __half_raw &r) : __x(r.x) {}
  PKEMU_HD __half(float f) : __x(::pkemu::detail::f2h(f)) {}
  PKEMU_HD __half(double f) : __x(::pkemu::detail::f2h((float)f)) {}
  PKEMU_HD __half(int v) : __x(::pkemu::detail::f2h((float)v)) {}
  PKEMU_HD __half(unsigned v) : __x(::pkemu::detail::f2h((float)v)) {}
  PKEMU_HD __half(short v) : __x(::pkemu::detail::f2h((float)v)) {}
  PKEMU_HD __half(unsigned short v) : __x(::pkemu::detail::f2h((float)v)) {}
  PKEMU_HD __half(long long v) : __x(::pkemu::detail::f2h((float)v)) {}
  PKEMU_HD __half(unsigned long long v) : __x(::pkemu::detail::f2h((float)v)) {}
  PKEMU_HD __half &operator=(const __half_raw &r) {
    __x = r.x;
    return *this;
  }
  PKEMU_HD operator float() const { return ::pkemu::detail::h2f(__x); }
  PKEMU_HD operator __half_raw() const { return __half_raw{__x}; }
};
struct __attribute__((aligned(4))) __half2 {
  __half x, y;
  __half2() = default;
  PKEMU_HD __half2(__half a, __half b) : x(a), y(b) {}
  PKEMU_HD __half2(const __half2_raw &r) {
    x.__x = r.x;
    y.__x = r.y;
  }
  PKEMU_HD operator __half2_raw() const { return __half2_raw{x.__x, y.__x}; }
};
typedef __half half;
typedef __half2 half2;

PKEMU_HD inline __half __float2half(float f) { return __half(f); }
PKEMU_HD inline __half __float2half_rn(float f) { return __half(f); }
PKEMU_HD inline __half __float2half_rz(float f) {
  __half h(f);
  if (std::fabs((float)h) > std::fabs(f) && std::isfinite(f))
    h.__x -= 1;
  return h;
}
PKEMU_HD inline __half __float2half_rd(float f) { return __half(f); }
PKEMU_HD inline __half __float2half_ru(float f) { return __half(f); }
PKEMU_HD inline __half __double2half(double f) { return __half((float)f); }
PKEMU_HD inline float __half2float(__half h) { return (float)h; }
PKEMU_HD inline __half2 __float2half2_rn(float f) {
  return __half2(__half(f), __half(f));
}
PKEMU_HD inline __half2 __floats2half2_rn(float a, float b) {
  return __half2(__half(a), __half(b));
}
PKEMU_HD inline __half2 __float22half2_rn(float2 f) {
  return __half2(__half(f.x), __half(f.y));
}
PKEMU_HD inline float2 __half22float2(__half2 h) {
  return make_float2((float)h.x, (float)h.y);
}
PKEMU_HD inline float __low2float(__half2 h) { return (float)h.x; }
PKEMU_HD inline float __high2float(__half2 h) { return (float)h.y; }
PKEMU_HD inline __half __low2half(__half2 h) { return h.x; }
PKEMU_HD inline __half __high2half(__half2 h) { return h.y; }
PKEMU_HD inline __half2 __halves2half2(__half a, __half b) {
  return __half2(a, b);
}
PKEMU_HD inline __half2 __half2half2(__half a) { return __half2(a, a); }
PKEMU_HD inline __half2 __low2half2(__half2 h) { return __half2(h.x, h.x); }
PKEMU_HD inline __half2 __high2half2(__half2 h) { return __half2(h.y, h.y); }
PKEMU_HD inline __half2 __lows2half2(__half2 a, __half2 b) {
  return __half2(a.x, b.x);
}
PKEMU_HD inline __half2 __highs2half2(__half2 a, __half2 b) {
  return __half2(a.y, b.y);
}
PKEMU_HD inline __half2 __lowhigh2highlow(__half2 h) {
  return __half2(h.y, h.x);
}
PKEMU_HD inline __half2 make_half2(__half a, __half b) { return __half2(a, b); }
PKEMU_HD inline short __half_as_short(__half h) { return (short)h.__x; }
PKEMU_HD inline unsigned short __half_as_ushort(__half h) { return h.__x; }
PKEMU_HD inline __half __short_as_half(short s) {
  return __half_raw{(unsigned short)s};
}
PKEMU_HD inline __half __ushort_as_half(unsigned short s) {
  return __half_raw{s};
}
PKEMU_HD inline int __half2int_rn(__half h) {
  return (int)nearbyintf((float)h);
}
PKEMU_HD inline int __half2int_rz(__half h) { return (int)(float)h; }
PKEMU_HD inline int __half2int_rd(__half h) { return (int)floorf((float)h); }
PKEMU_HD inline int __half2int_ru(__half h) { return (int)ceilf((float)h); }
PKEMU_HD inline unsigned __half2uint_rz(__half h) { return (unsigned)(float)h; }
PKEMU_HD inline short __half2short_rz(__half h) { return (short)(float)h; }
PKEMU_HD inline long long __half2ll_rz(__half h) { return (long long)(float)h; }
PKEMU_HD inline __half __int2half_rn(int v) { return __half((float)v); }
PKEMU_HD inline __half __uint2half_rn(unsigned v) { return __half((float)v); }
PKEMU_HD inline __half __short2half_rn(short v) { return __half((float)v); }
PKEMU_HD inline __half __ll2half_rn(long long v) { return __half((float)v); }

#define PKEMU_H1(NAME, EXPR)                                                   \
  PKEMU_HD inline __half NAME(__half a) {                                      \
    float x = (float)a;                                                        \
    return __half(EXPR);                                                       \
  }
#define PKEMU_H2(NAME, EXPR)                                                   \
  PKEMU_HD inline __half NAME(__half a, __half b) {                            \
    float x = (float)a, y = (float)b;                                          \
    return __half(EXPR);                                                       \
  }
// clang-format off
PKEMU_H2(__hadd, x + y) PKEMU_H2(__hsub, x - y) PKEMU_H2(__hmul, x * y) PKEMU_H2(__hdiv, x / y)
PKEMU_H2(__hadd_rn, x + y) PKEMU_H2(__hsub_rn, x - y) PKEMU_H2(__hmul_rn, x * y)
PKEMU_H2(__hadd_sat, fminf(fmaxf(x + y, 0.f), 1.f)) PKEMU_H2(__hmul_sat, fminf(fmaxf(x * y, 0.f), 1.f))
PKEMU_H2(__hmax, fmaxf(x, y)) PKEMU_H2(__hmin, fminf(x, y))
PKEMU_H1(__hneg, -x) PKEMU_H1(__habs, fabsf(x)) PKEMU_H1(hsqrt, sqrtf(x)) PKEMU_H1(hrsqrt, 1.0f / sqrtf(x))
PKEMU_H1(hrcp, 1.0f / x) PKEMU_H1(hexp, expf(x)) PKEMU_H1(hexp2, exp2f(x)) PKEMU_H1(hexp10, powf(10.f, x))
PKEMU_H1(hlog, logf(x)) PKEMU_H1(hlog2, log2f(x)) PKEMU_H1(hlog10, log10f(x)) PKEMU_H1(hsin, sinf(x))
PKEMU_H1(hcos, cosf(x)) PKEMU_H1(hfloor, floorf(x)) PKEMU_H1(hceil, ceilf(x)) PKEMU_H1(htrunc, truncf(x))
PKEMU_H1(hrint, nearbyintf(x))
// clang-format on
#undef PKEMU_H1
#undef PKEMU_H2
                                                    PKEMU_HD inline __half
    __hfma(__half a, __half b, __half c) {
  return __half(fmaf((float)a, (float)b, (float)c));
}
PKEMU_HD inline __half __hfma_sat(__half a, __half b, __half c) {
  return __half(fminf(fmaxf(fmaf((float)a, (float)b, (float)c), 0.f), 1.f));
}
PKEMU_HD inline bool __heq(__half a, __half b) { return (float)a == (float)b; }
PKEMU_HD inline bool __hne(__half a, __half b) { return (float)a != (float)b; }
PKEMU_HD inline bool __hlt(__half a, __half b) { return (float)a < (float)b; }
PKEMU_HD inline bool __hle(__half a, __half b) { return (float)a <= (float)b; }
PKEMU_HD inline bool __hgt(__half a, __half b) { return (float)a > (float)b; }
PKEMU_HD inline bool __hge(__half a, __half b) { return (float)a >= (float)b; }
PKEMU_HD inline bool __hisnan(__half a) { return std::isnan((float)a); }
PKEMU_HD inline int __hisinf(__half a) {
  float f = (float)a;
  return std::isinf(f) ? (f < 0 ? -1 : 1) : 0;
}

#define PKEMU_HOP(OP)                                                          \
  PKEMU_HD inline __half operator OP(const __half &a, const __half &b) {       \
    return __half((float)a OP(float) b);                                       \
  }
// clang-format off
PKEMU_HOP(+) PKEMU_HOP(-) PKEMU_HOP(*) PKEMU_HOP(/)
// clang-format on
#undef PKEMU_HOP
#define PKEMU_HCMP(OP)                                                         \
  PKEMU_HD inline bool operator OP(const __half &a, const __half &b) {         \
    return (float)a OP(float) b;                                               \
  }
    // clang-format off
PKEMU_HCMP(==) PKEMU_HCMP(!=) PKEMU_HCMP(<) PKEMU_HCMP(<=) PKEMU_HCMP(>) PKEMU_HCMP(>=)
// clang-format on
#undef PKEMU_HCMP
            PKEMU_HD inline __half
            operator-(const __half &a) {
  return __hneg(a);
}
PKEMU_HD inline __half operator+(const __half &a) { return a; }
PKEMU_HD inline __half &operator+=(__half &a, const __half &b) {
  a = a + b;
  return a;
}
PKEMU_HD inline __half &operator-=(__half &a, const __half &b) {
  a = a - b;
  return a;
}
PKEMU_HD inline __half &operator*=(__half &a, const __half &b) {
  a = a * b;
  return a;
}
PKEMU_HD inline __half &operator/=(__half &a, const __half &b) {
  a = a / b;
  return a;
}
PKEMU_HD inline __half &operator++(__half &a) {
  a = a + __half(1.0f);
  return a;
}
PKEMU_HD inline __half &operator--(__half &a) {
  a = a - __half(1.0f);
  return a;
}

#define PKEMU_H2OP(NAME, F)                                                    \
  PKEMU_HD inline __half2 NAME(__half2 a, __half2 b) {                         \
    return __half2(F(a.x, b.x), F(a.y, b.y));                                  \
  }
// clang-format off
PKEMU_H2OP(__hadd2, __hadd) PKEMU_H2OP(__hsub2, __hsub) PKEMU_H2OP(__hmul2, __hmul) PKEMU_H2OP(__h2div, __hdiv)
PKEMU_H2OP(__hmax2, __hmax) PKEMU_H2OP(__hmin2, __hmin) PKEMU_H2OP(__hadd2_sat, __hadd_sat)
PKEMU_H2OP(__hmul2_sat, __hmul_sat)
// clang-format on
#undef PKEMU_H2OP
            PKEMU_HD inline __half2 __hfma2(__half2 a, __half2 b, __half2 c) {
  return __half2(__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y));
}
PKEMU_HD inline __half2 __hneg2(__half2 a) {
  return __half2(__hneg(a.x), __hneg(a.y));
}
PKEMU_HD inline __half2 __habs2(__half2 a) {
  return __half2(__habs(a.x), __habs(a.y));
}
PKEMU_HD inline __half2 h2sqrt(__half2 a) {
  return __half2(hsqrt(a.x), hsqrt(a.y));
}
PKEMU_HD inline __half2 h2exp(__half2 a) {
  return __half2(hexp(a.x), hexp(a.y));
}
PKEMU_HD inline __half2 h2rcp(__half2 a) {
  return __half2(hrcp(a.x), hrcp(a.y));
}
PKEMU_HD inline bool __hbeq2(__half2 a, __half2 b) {
  return __heq(a.x, b.x) && __heq(a.y, b.y);
}
PKEMU_HD inline __half2 operator+(const __half2 &a, const __half2 &b) {
  return __hadd2(a, b);
}
PKEMU_HD inline __half2 operator-(const __half2 &a, const __half2 &b) {
  return __hsub2(a, b);
}
PKEMU_HD inline __half2 operator*(const __half2 &a, const __half2 &b) {
  return __hmul2(a, b);
}
PKEMU_HD inline __half2 operator/(const __half2 &a, const __half2 &b) {
  return __h2div(a, b);
}
PKEMU_HD inline __half2 &operator+=(__half2 &a, const __half2 &b) {
  a = a + b;
  return a;
}
PKEMU_HD inline __half2 &operator-=(__half2 &a, const __half2 &b) {
  a = a - b;
  return a;
}
PKEMU_HD inline __half2 &operator*=(__half2 &a, const __half2 &b) {
  a = a * b;
  return a;
}
PKEMU_HD inline __half2 operator-(const __half2 &a) { return __hneg2(a); }
PKEMU_HD inline bool operator==(const __half2 &a, const __half2 &b) {
  return __hbeq2(a, b);
}

// ---------------------------------------------------------------------------------------------
// bfloat16
struct __nv_bfloat16_raw {
  unsigned short x;
};
struct __nv_bfloat162_raw {
  unsigned short x, y;
};

struct __attribute__((aligned(2))) __nv_bfloat16 {
  unsigned short __x;
  __nv_bfloat16() = default;
  PKEMU_HD __nv_bfloat16(const __nv_bfloat16_raw &r) : __x(r.x) {}
  PKEMU_HD __nv_bfloat16(float f) : __x(::pkemu::detail::f2bf(f)) {}
  PKEMU_HD __nv_bfloat16(double f) : __x(::pkemu::detail::f2bf((float)f)) {}
  PKEMU_HD __nv_bfloat16(int v) : __x(::pkemu::detail::f2bf((float)v)) {}
  PKEMU_HD __nv_bfloat16(unsigned v) : __x(::pkemu::detail::f2bf((float)v)) {}
  PKEMU_HD __nv_bfloat16(long long v) : __x(::pkemu::detail::f2bf((float)v)) {}
  PKEMU_HD __nv_bfloat16 &operator=(const __nv_bfloat16_raw &r) {
    __x = r.x;
    return *this;
  }
  PKEMU_HD operator float() const { return ::pkemu::detail::bf2f(__x); }
  PKEMU_HD operator __nv_bfloat16_raw() const { return __nv_bfloat16_raw{__x}; }
};
struct __attribute__((aligned(4))) __nv_bfloat162 {
  __nv_bfloat16 x, y;
  __nv_bfloat162() = default;
  PKEMU_HD __nv_bfloat162(__nv_bfloat16 a, __nv_bfloat16 b) : x(a), y(b) {}
};
typedef __nv_bfloat16 nv_bfloat16;
typedef __nv_bfloat162 nv_bfloat162;
typedef __nv_bfloat16 __hip_bfloat16;
typedef __nv_bfloat162 __hip_bfloat162;

PKEMU_HD inline __nv_bfloat16 __float2bfloat16(float f) {
  return __nv_bfloat16(f);
}
PKEMU_HD inline __nv_bfloat16 __float2bfloat16_rn(float f) {
  return __nv_bfloat16(f);
}
PKEMU_HD inline __nv_bfloat16 __float2bfloat16_rz(float f) {
  return __nv_bfloat16_raw{::pkemu::detail::f2bf_rz(f)};
}
PKEMU_HD inline __nv_bfloat16 __double2bfloat16(double f) {
  return __nv_bfloat16((float)f);
}
PKEMU_HD inline float __bfloat162float(__nv_bfloat16 h) { return (float)h; }
PKEMU_HD inline __nv_bfloat162 __float2bfloat162_rn(float f) {
  return __nv_bfloat162(f, f);
}
PKEMU_HD inline __nv_bfloat162 __floats2bfloat162_rn(float a, float b) {
  return __nv_bfloat162(a, b);
}
PKEMU_HD inline __nv_bfloat162 __float22bfloat162_rn(float2 f) {
  return __nv_bfloat162(f.x, f.y);
}
PKEMU_HD inline float2 __bfloat1622float2(__nv_bfloat162 h) {
  return make_float2((float)h.x, (float)h.y);
}
PKEMU_HD inline float __low2float(__nv_bfloat162 h) { return (float)h.x; }
PKEMU_HD inline float __high2float(__nv_bfloat162 h) { return (float)h.y; }
PKEMU_HD inline __nv_bfloat16 __low2bfloat16(__nv_bfloat162 h) { return h.x; }
PKEMU_HD inline __nv_bfloat16 __high2bfloat16(__nv_bfloat162 h) { return h.y; }
PKEMU_HD inline __nv_bfloat162 __halves2bfloat162(__nv_bfloat16 a,
                                                  __nv_bfloat16 b) {
  return __nv_bfloat162(a, b);
}
PKEMU_HD inline __nv_bfloat162 __bfloat162bfloat162(__nv_bfloat16 a) {
  return __nv_bfloat162(a, a);
}
PKEMU_HD inline short __bfloat16_as_short(__nv_bfloat16 h) {
  return (short)h.__x;
}
PKEMU_HD inline unsigned short __bfloat16_as_ushort(__nv_bfloat16 h) {
  return h.__x;
}
PKEMU_HD inline __nv_bfloat16 __short_as_bfloat16(short s) {
  return __nv_bfloat16_raw{(unsigned short)s};
}
PKEMU_HD inline __nv_bfloat16 __ushort_as_bfloat16(unsigned short s) {
  return __nv_bfloat16_raw{s};
}
PKEMU_HD inline int __bfloat162int_rz(__nv_bfloat16 h) { return (int)(float)h; }
PKEMU_HD inline __nv_bfloat16 __int2bfloat16_rn(int v) {
  return __nv_bfloat16((float)v);
}

#define PKEMU_B1(NAME, EXPR)                                                   \
  PKEMU_HD inline __nv_bfloat16 NAME(__nv_bfloat16 a) {                        \
    float x = (float)a;                                                        \
    return __nv_bfloat16(EXPR);                                                \
  }
#define PKEMU_B2(NAME, EXPR)                                                   \
  PKEMU_HD inline __nv_bfloat16 NAME(__nv_bfloat16 a, __nv_bfloat16 b) {       \
    float x = (float)a, y = (float)b;                                          \
    return __nv_bfloat16(EXPR);                                                \
  }
// clang-format off
PKEMU_B2(__hadd, x + y) PKEMU_B2(__hsub, x - y) PKEMU_B2(__hmul, x * y) PKEMU_B2(__hdiv, x / y)
PKEMU_B2(__hmax, fmaxf(x, y)) PKEMU_B2(__hmin, fminf(x, y))
PKEMU_B1(__hneg, -x) PKEMU_B1(__habs, fabsf(x)) PKEMU_B1(hsqrt, sqrtf(x)) PKEMU_B1(hrsqrt, 1.0f / sqrtf(x))
PKEMU_B1(hexp, expf(x)) PKEMU_B1(hlog, logf(x)) PKEMU_B1(hsin, sinf(x)) PKEMU_B1(hcos, cosf(x))
PKEMU_B1(hrcp, 1.0f / x)
// clang-format on
#undef PKEMU_B1
#undef PKEMU_B2
                        PKEMU_HD inline __nv_bfloat16
    __hfma(__nv_bfloat16 a, __nv_bfloat16 b, __nv_bfloat16 c) {
  return __nv_bfloat16(fmaf((float)a, (float)b, (float)c));
}
PKEMU_HD inline bool __heq(__nv_bfloat16 a, __nv_bfloat16 b) {
  return (float)a == (float)b;
}
PKEMU_HD inline bool __hlt(__nv_bfloat16 a, __nv_bfloat16 b) {
  return (float)a < (float)b;
}
PKEMU_HD inline bool __hgt(__nv_bfloat16 a, __nv_bfloat16 b) {
  return (float)a > (float)b;
}
PKEMU_HD inline bool __hisnan(__nv_bfloat16 a) { return std::isnan((float)a); }
#define PKEMU_BOP(OP)                                                          \
  PKEMU_HD inline __nv_bfloat16 operator OP(const __nv_bfloat16 &a,            \
                                            const __nv_bfloat16 &b) {          \
    return __nv_bfloat16((float)a OP(float) b);                                \
  }
// clang-format off
PKEMU_BOP(+) PKEMU_BOP(-) PKEMU_BOP(*) PKEMU_BOP(/)
// clang-format on
#undef PKEMU_BOP
#define PKEMU_BCMP(OP)                                                         \
  PKEMU_HD inline bool operator OP(const __nv_bfloat16 &a,                     \
                                   const __nv_bfloat16 &b) {                   \
    return (float)a OP(float) b;                                               \
  }
    // clang-format off
PKEMU_BCMP(==) PKEMU_BCMP(!=) PKEMU_BCMP(<) PKEMU_BCMP(<=) PKEMU_BCMP(>) PKEMU_BCMP(>=)
// clang-format on
#undef PKEMU_BCMP
            PKEMU_HD inline __nv_bfloat16
            operator-(const __nv_bfloat16 &a) {
  return __hneg(a);
}
PKEMU_HD inline __nv_bfloat16 &operator+=(__nv_bfloat16 &a,
                                          const __nv_bfloat16 &b) {
  a = a + b;
  return a;
}
PKEMU_HD inline __nv_bfloat16 &operator-=(__nv_bfloat16 &a,
                                          const __nv_bfloat16 &b) {
  a = a - b;
  return a;
}
PKEMU_HD inline __nv_bfloat16 &operator*=(__nv_bfloat16 &a,
                                          const __nv_bfloat16 &b) {
  a = a * b;
  return a;
}
PKEMU_HD inline __nv_bfloat16 &operator/=(__nv_bfloat16 &a,
                                          const __nv_bfloat16 &b) {
  a = a / b;
  return a;
}
#define PKEMU_B2OP(NAME, F)                                                    \
  PKEMU_HD inline __nv_bfloat162 NAME(__nv_bfloat162 a, __nv_bfloat162 b) {    \
    return __nv_bfloat162(F(a.x, b.x), F(a.y, b.y));                           \
  }
// clang-format off
PKEMU_B2OP(__hadd2, __hadd) PKEMU_B2OP(__hsub2, __hsub) PKEMU_B2OP(__hmul2, __hmul) PKEMU_B2OP(__h2div, __hdiv)
PKEMU_B2OP(__hmax2, __hmax) PKEMU_B2OP(__hmin2, __hmin)
// clang-format on
#undef PKEMU_B2OP
        PKEMU_HD inline __nv_bfloat162
    __hfma2(__nv_bfloat162 a, __nv_bfloat162 b, __nv_bfloat162 c) {
  return __nv_bfloat162(__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y));
}
PKEMU_HD inline __nv_bfloat162 operator+(const __nv_bfloat162 &a,
                                         const __nv_bfloat162 &b) {
  return __hadd2(a, b);
}
PKEMU_HD inline __nv_bfloat162 operator*(const __nv_bfloat162 &a,
                                         const __nv_bfloat162 &b) {
  return __hmul2(a, b);
}

// HIP's older bfloat16 type (hip_bfloat16.h). As in ROCm's header, a float
// converts to it only explicitly (no implicit constructor, no assignment from
// float).
struct hip_bfloat16 {
  std::uint16_t data;
  enum truncate_t { truncate };
  hip_bfloat16() = default;
  PKEMU_HD explicit hip_bfloat16(float f) : data(::pkemu::detail::f2bf(f)) {}
  PKEMU_HD hip_bfloat16(float f, truncate_t)
      : data(::pkemu::detail::f2bf_rz(f)) {}
  PKEMU_HD operator float() const { return ::pkemu::detail::bf2f(data); }
  PKEMU_HD static hip_bfloat16 round_to_bfloat16(float f) {
    return hip_bfloat16(f);
  }
};
#define PKEMU_HBOP(OP)                                                         \
  PKEMU_HD inline hip_bfloat16 operator OP(hip_bfloat16 a, hip_bfloat16 b) {   \
    return hip_bfloat16((float)a OP(float) b);                                 \
  }                                                                            \
  PKEMU_HD inline hip_bfloat16 &operator OP##=(hip_bfloat16 & a,               \
                                               hip_bfloat16 b) {               \
    a = a OP b;                                                                \
    return a;                                                                  \
  }
// clang-format off
PKEMU_HBOP(+) PKEMU_HBOP(-) PKEMU_HBOP(*) PKEMU_HBOP(/)
// clang-format on
#undef PKEMU_HBOP
    PKEMU_HD inline hip_bfloat16
    operator-(hip_bfloat16 a) {
  a.data ^= 0x8000;
  return a;
}
PKEMU_HD inline bool operator==(hip_bfloat16 a, hip_bfloat16 b) {
  return (float)a == (float)b;
}
PKEMU_HD inline bool operator!=(hip_bfloat16 a, hip_bfloat16 b) {
  return (float)a != (float)b;
}
PKEMU_HD inline bool operator<(hip_bfloat16 a, hip_bfloat16 b) {
  return (float)a < (float)b;
}
PKEMU_HD inline bool operator>(hip_bfloat16 a, hip_bfloat16 b) {
  return (float)a > (float)b;
}

// atomicAdd on 16-bit floats and their pairs (CUDA: __half2 from sm_60,
// __half from sm_70, __nv_bfloat16 and __nv_bfloat162 from sm_80; HIP has
// the half forms): a compare-and-swap loop over the element's bits, relaxed
// like the other atomics.  A pair adds both halves in one atomic step.
// (device.h, which the prelude includes first, defines PKEMU_AT.)
#define PKEMU_ATOMIC_ADD16(T, U)                                               \
  PKEMU_HD inline __attribute__((always_inline)) T atomicAdd(T *p, T v) {      \
    PKEMU_AT(p);                                                               \
    return ::pkemu::detail::atomic_cas_loop<T, U>(p,                           \
                                                  [v](T o) { return o + v; }); \
  }
PKEMU_ATOMIC_ADD16(__half, std::uint16_t)
PKEMU_ATOMIC_ADD16(__half2, std::uint32_t)
PKEMU_ATOMIC_ADD16(__nv_bfloat16, std::uint16_t)
PKEMU_ATOMIC_ADD16(__nv_bfloat162, std::uint32_t)
#undef PKEMU_ATOMIC_ADD16
