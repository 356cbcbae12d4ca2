//===- vector_types.h - built-in vector types -------------------*- C++ -*-===//
// Rules: none (emulator runtime)
//
// pkemu: CUDA/HIP built-in vector types (char1..double4, dim3) for
// host-compiled kernels.
//
//===----------------------------------------------------------------------===//
#pragma once
#include <cstddef>

#ifdef PKEMU_PARSE
#define PKEMU_HD __attribute__((host, device))
#else
#define PKEMU_HD
#endif

#define PKEMU_VEC1(T, N, A)                                                    \
  struct __attribute__((aligned(A))) N##1 { T x; };                            \
  PKEMU_HD inline N##1 make_##N##1(T x) {                                      \
    N##1 r;                                                                    \
    r.x = x;                                                                   \
    return r;                                                                  \
  }
#define PKEMU_VEC2(T, N, A)                                                    \
  struct __attribute__((aligned(A))) N##2 { T x, y; };                         \
  PKEMU_HD inline N##2 make_##N##2(T x, T y) {                                 \
    N##2 r;                                                                    \
    r.x = x;                                                                   \
    r.y = y;                                                                   \
    return r;                                                                  \
  }
#define PKEMU_VEC3(T, N)                                                       \
  struct N##3 { T x, y, z; };                                                  \
  PKEMU_HD inline N##3 make_##N##3(T x, T y, T z) {                            \
    N##3 r;                                                                    \
    r.x = x;                                                                   \
    r.y = y;                                                                   \
    r.z = z;                                                                   \
    return r;                                                                  \
  }
#define PKEMU_VEC4(T, N, A)                                                    \
  struct __attribute__((aligned(A))) N##4 { T x, y, z, w; };                   \
  PKEMU_HD inline N##4 make_##N##4(T x, T y, T z, T w) {                       \
    N##4 r;                                                                    \
    r.x = x;                                                                   \
    r.y = y;                                                                   \
    r.z = z;                                                                   \
    r.w = w;                                                                   \
    return r;                                                                  \
  }
#define PKEMU_VEC_ALL(T, N, A1, A2, A4)                                        \
  PKEMU_VEC1(T, N, A1)                                                         \
  PKEMU_VEC2(T, N, A2) PKEMU_VEC3(T, N) PKEMU_VEC4(T, N, A4)

// clang-format off
PKEMU_VEC_ALL(signed char, char, 1, 2, 4)
PKEMU_VEC_ALL(unsigned char, uchar, 1, 2, 4)
PKEMU_VEC_ALL(short, short, 2, 4, 8)
PKEMU_VEC_ALL(unsigned short, ushort, 2, 4, 8)
PKEMU_VEC_ALL(int, int, 4, 8, 16)
PKEMU_VEC_ALL(unsigned int, uint, 4, 8, 16)
PKEMU_VEC_ALL(long, long, 8, 16, 16)
PKEMU_VEC_ALL(unsigned long, ulong, 8, 16, 16)
PKEMU_VEC_ALL(long long, longlong, 8, 16, 16)
PKEMU_VEC_ALL(unsigned long long, ulonglong, 8, 16, 16)
PKEMU_VEC_ALL(float, float, 4, 8, 16)
PKEMU_VEC_ALL(double, double, 8, 16, 16)
// clang-format on

#undef PKEMU_VEC1
#undef PKEMU_VEC2
#undef PKEMU_VEC3
#undef PKEMU_VEC4
#undef PKEMU_VEC_ALL

struct dim3 {
  unsigned int x, y, z;
  PKEMU_HD constexpr dim3(unsigned int vx = 1, unsigned int vy = 1,
                          unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
  PKEMU_HD constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  PKEMU_HD constexpr operator uint3() const { return uint3{x, y, z}; }
};

#if defined(PKEMU_LANG_HIP)
// HIP's vector types support element-wise arithmetic.
#define PKEMU_HIP_VOPS(V)                                                      \
  PKEMU_HD inline V operator+(V a, V b) {                                      \
    V r = a;                                                                   \
    r.x += b.x;                                                                \
    r.y += b.y;                                                                \
    return r;                                                                  \
  }                                                                            \
  PKEMU_HD inline V operator-(V a, V b) {                                      \
    V r = a;                                                                   \
    r.x -= b.x;                                                                \
    r.y -= b.y;                                                                \
    return r;                                                                  \
  }                                                                            \
  PKEMU_HD inline V operator*(V a, V b) {                                      \
    V r = a;                                                                   \
    r.x *= b.x;                                                                \
    r.y *= b.y;                                                                \
    return r;                                                                  \
  }                                                                            \
  PKEMU_HD inline V &operator+=(V &a, V b) {                                   \
    a = a + b;                                                                 \
    return a;                                                                  \
  }                                                                            \
  PKEMU_HD inline V &operator-=(V &a, V b) {                                   \
    a = a - b;                                                                 \
    return a;                                                                  \
  }                                                                            \
  PKEMU_HD inline V &operator*=(V &a, V b) {                                   \
    a = a * b;                                                                 \
    return a;                                                                  \
  }
#define PKEMU_HIP_VOPS4(V)                                                     \
  PKEMU_HD inline V operator+(V a, V b) {                                      \
    V r = a;                                                                   \
    r.x += b.x;                                                                \
    r.y += b.y;                                                                \
    r.z += b.z;                                                                \
    r.w += b.w;                                                                \
    return r;                                                                  \
  }                                                                            \
  PKEMU_HD inline V operator-(V a, V b) {                                      \
    V r = a;                                                                   \
    r.x -= b.x;                                                                \
    r.y -= b.y;                                                                \
    r.z -= b.z;                                                                \
    r.w -= b.w;                                                                \
    return r;                                                                  \
  }                                                                            \
  PKEMU_HD inline V operator*(V a, V b) {                                      \
    V r = a;                                                                   \
    r.x *= b.x;                                                                \
    r.y *= b.y;                                                                \
    r.z *= b.z;                                                                \
    r.w *= b.w;                                                                \
    return r;                                                                  \
  }                                                                            \
  PKEMU_HD inline V &operator+=(V &a, V b) {                                   \
    a = a + b;                                                                 \
    return a;                                                                  \
  }                                                                            \
  PKEMU_HD inline V &operator-=(V &a, V b) {                                   \
    a = a - b;                                                                 \
    return a;                                                                  \
  }                                                                            \
  PKEMU_HD inline V &operator*=(V &a, V b) {                                   \
    a = a * b;                                                                 \
    return a;                                                                  \
  }
// clang-format off
PKEMU_HIP_VOPS(float2) PKEMU_HIP_VOPS(double2) PKEMU_HIP_VOPS(int2) PKEMU_HIP_VOPS(uint2)
PKEMU_HIP_VOPS4(float4) PKEMU_HIP_VOPS4(double4) PKEMU_HIP_VOPS4(int4) PKEMU_HIP_VOPS4(uint4)
// clang-format on
#undef PKEMU_HIP_VOPS
#undef PKEMU_HIP_VOPS4
#endif
