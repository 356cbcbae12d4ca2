//===- MfmaHelpers.cpp - helper code generated into MFMA ports ------------===//
// Rules: PK3001, PK3002, PK3005
//
// Lane layouts (matrix-cores reference; L = lane 0..63 of the wave):
//   v_mfma_f32_16x16x16: A[i][k] in lane i + 16 (k / 4), element k % 4;
//     B[k][j] in lane j + 16 (k / 4), element k % 4;
//     C/D[i][j] in lane j + 16 (i / 4), register i % 4.
//   v_mfma_f32_32x32x8:  A[i][k] in lane i + 32 (k / 4), element k % 4;
//     B[k][j] in lane j + 32 (k / 4), element k % 4;
//     C/D[i][j] in lane j + 32 ((i / 4) % 2), register 4 (i / 8) + i % 4.
// A wave runs two 32-lane logical warps; "tile t" is the 16x16 tile of the
// logical warp in lanes 32t .. 32t + 31.
//
//===----------------------------------------------------------------------===//
#include "MfmaHelpers.h"
#include <cstring>

using namespace pk;

namespace {

// Shared by both shapes: tags, the cross-lane helpers and the element moves.
const char *Prologue = R"pk(
#ifndef PK_MFMA_WMMA
#define PK_MFMA_WMMA
#include <hip/hip_runtime.h>
// port-kernel: nvcuda::wmma m16n16k16 on AMD matrix cores [PK3001]
// A 64-lane wave runs two 32-lane logical warps (lanes 0-31 and 32-63), and
// each logical warp keeps its own 16x16 tiles.  A fragment holds, in every
// lane, that lane's MFMA-layout elements of BOTH warps' tiles, so fragment
// operations are wave-wide: the two logical warps of a wave reach them
// together (see docs/mfma.md).  x[] covers every element of both tiles once.
namespace pk_mfma {
struct matrix_a {};
struct matrix_b {};
struct accumulator {};
struct row_major {};
struct col_major {};
enum layout_t { mem_row_major, mem_col_major };

namespace detail {
typedef float f32x4 __attribute__((ext_vector_type(4)));
typedef float f32x16 __attribute__((ext_vector_type(16)));
typedef unsigned short u16x4 __attribute__((ext_vector_type(4)));
template <class T> struct id { typedef T type; };
__device__ inline int lane() { return (int)__lane_id(); }
// The value of v in lane src (0 or 32: the first lane of a logical warp; all
// lanes of a logical warp pass the same pointer and ldm), made wave-uniform.
// Fragment operations run with all 64 lanes, so lane 0 is the first lane.
__device__ inline int lane_value(int v, int src) {
  return __builtin_amdgcn_readfirstlane(src ? __shfl(v, src, 64) : v);
}
__device__ inline unsigned warp_uint(unsigned v, int src) {
  return (unsigned)lane_value((int)v, src);
}
// Lane src's pointer, rebuilt from this lane's own pointer so that the
// address space (global or LDS) stays known to the compiler.
template <class T> __device__ inline T *warp_ptr(T *p, int src) {
  const unsigned long long mine = (unsigned long long)(__UINTPTR_TYPE__)p;
  const unsigned long long lo = (unsigned)lane_value((int)(unsigned)mine, src);
  const unsigned long long hi = (unsigned)lane_value((int)(unsigned)(mine >> 32), src);
  return (T *)((const char *)p + (long long)(((hi << 32) | lo) - mine));
}
// ldm as seen by lane src, or 0 when that logical warp has finished (ldm is
// never 0 in valid code: CUDA requires a multiple of 8).
__device__ inline unsigned warp_ld(unsigned ldm, bool live, int src) {
  return warp_uint(live ? ldm : 0u, src);
}
// Four 16-bit elements: consecutive (one 8-byte load) or strided.
template <class T> __device__ inline void load4c(T *dst, const T *src) {
  const u16x4 v = *(const u16x4 *)src;
  __builtin_memcpy(dst, &v, 8);
}
template <class T> __device__ inline void load4s(T *dst, const T *src, unsigned ld) {
  for (int e = 0; e < 4; ++e)
    dst[e] = src[e * ld];
}
template <class T> __device__ inline void zero4(T *dst) {
  __builtin_memset(dst, 0, 4 * sizeof(T));
}
// Elements (m, k .. k+3) of an A (m: row) or B (m: column) operand at q
// with leading dimension ld, or zeros when ld is 0 (a finished warp).  A
// row-major and B col-major hold the four consecutively.
template <class Use, class Layout> struct contiguous_k {
  enum { value = __is_same(Use, matrix_a) == __is_same(Layout, row_major) };
};
template <class Use, class Layout, class T>
__device__ inline void load_operand4(T *dst, const T *q, unsigned ld, int m, int k) {
  if (!ld)
    zero4(dst);
  else if (contiguous_k<Use, Layout>::value)
    load4c(dst, q + m * ld + k);
  else
    load4s(dst, q + k * ld + m, ld);
}
// Only A and B fragments are operands (SFINAE for load_matrix_sync).
template <class Use> struct operand_only {};
template <> struct operand_only<matrix_a> { typedef void type; };
template <> struct operand_only<matrix_b> { typedef void type; };
} // namespace detail
)pk";

const char *Fill = R"pk(
template <class Use, int M, int N, int K, class T, class Layout>
__device__ inline void fill_fragment(fragment<Use, M, N, K, T, Layout> &f,
                                     const typename detail::id<T>::type &v) {
  for (int i = 0; i < f.num_elements; ++i)
    f.x[i] = v;
}
} // namespace pk_mfma
#endif // PK_MFMA_WMMA
)pk";

const char *OpsOpen = R"pk(
#ifndef PK_MFMA_WMMA_OPS
#define PK_MFMA_WMMA_OPS
namespace pk_mfma {
)pk";

const char *Frag16 = R"pk(
// Shape 16x16x16: one v_mfma_f32_16x16x16 per tile; x[4t .. 4t+3] hold this
// lane's elements of tile t (t = 0: lanes 0-31, t = 1: lanes 32-63).
//   A: x[4t+e] = A_t[L % 16][4 (L / 16) + e]   B: x[4t+e] = B_t[4 (L / 16) + e][L % 16]
//   accumulator: x[4t+r] = C_t[4 (L / 16) + r][L % 16]
template <class Use, int M, int N, int K, class T, class Layout = void>
struct fragment {
  static_assert(M == 16 && N == 16 && K == 16, "m16n16k16 fragments only");
  typedef T element_type;
  typedef T storage_element_type;
  static constexpr int num_elements = 8;
  T x[num_elements];
};
)pk";

const char *Ops16 = R"pk(
template <class Use, class T, class Layout>
__device__ inline typename detail::operand_only<Use>::type
load_matrix_sync(fragment<Use, 16, 16, 16, T, Layout> &f, const typename detail::id<T>::type *p,
                 unsigned ldm, bool live = true) {
  const int L = detail::lane(), m = L & 15, k = 4 * (L >> 4);
  for (int t = 0; t < 2; ++t)
    detail::load_operand4<Use, Layout>(&f.x[4 * t], detail::warp_ptr(p, 32 * t),
                                       detail::warp_ld(ldm, live, 32 * t), m, k);
}
__device__ inline void load_matrix_sync(fragment<accumulator, 16, 16, 16, float> &f,
                                        const float *p, unsigned ldm, layout_t layout,
                                        bool live = true) {
  const int L = detail::lane(), j = L & 15, i = 4 * (L >> 4);
  for (int t = 0; t < 2; ++t) {
    const float *q = detail::warp_ptr(p, 32 * t);
    const unsigned ld = detail::warp_ld(ldm, live, 32 * t);
    for (int r = 0; r < 4; ++r)
      f.x[4 * t + r] = !ld ? 0.0f
                       : layout == mem_row_major ? q[(i + r) * ld + j]
                                                 : q[j * ld + i + r];
  }
}
__device__ inline void store_matrix_sync(float *p, const fragment<accumulator, 16, 16, 16, float> &f,
                                         unsigned ldm, layout_t layout, bool live = true) {
  const int L = detail::lane(), j = L & 15, i = 4 * (L >> 4);
  for (int t = 0; t < 2; ++t) {
    float *q = detail::warp_ptr(p, 32 * t);
    const unsigned ld = detail::warp_ld(ldm, live, 32 * t);
    if (!ld)
      continue;
    if (layout == mem_row_major) {
      for (int r = 0; r < 4; ++r)
        q[(i + r) * ld + j] = f.x[4 * t + r];
    } else {
      detail::f32x4 v;
      __builtin_memcpy(&v, &f.x[4 * t], 16);
      *(detail::f32x4 *)(q + j * ld + i) = v;
    }
  }
}
template <class TA, class LA, class TB, class LB>
__device__ inline void mma_sync(fragment<accumulator, 16, 16, 16, float> &d,
                                const fragment<matrix_a, 16, 16, 16, TA, LA> &a,
                                const fragment<matrix_b, 16, 16, 16, TB, LB> &b,
                                const fragment<accumulator, 16, 16, 16, float> &c,
                                bool satf = false) {
  (void)satf;
  for (int t = 0; t < 2; ++t) {
    detail::f32x4 acc;
    __builtin_memcpy(&acc, &c.x[4 * t], 16);
    acc = detail::mfma16(&a.x[4 * t], &b.x[4 * t], acc);
    __builtin_memcpy(&d.x[4 * t], &acc, 16);
  }
}
} // namespace pk_mfma
#endif // PK_MFMA_WMMA_OPS
)pk";

const char *Frag32 = R"pk(
// Shape 32x32x8: one v_mfma_f32_32x32x8 per k-step of 8 computes both tiles:
// tile t's A rows are rows 16t .. 16t+15 and its B columns are columns
// 16t .. 16t+15; the results are the diagonal blocks D[16t .. 16t+15][16t ..
// 16t+15].  Lane L works on tile t = (L / 16) % 2 (h = 0, 1: k 0-7, 8-15):
//   A: x[4h+e] = A_t[L % 16][8h + 4 (L / 32) + e]
//   B: x[4h+e] = B_t[8h + 4 (L / 32) + e][L % 16]
//   accumulator (16 registers): x[8t+q] = C_t[8 (q / 4) + 4 (L / 32) + q % 4][L % 16],
//   q = 0..7; x[8(1-t) .. 8(1-t)+7] belong to the off-diagonal blocks (unused).
template <class Use> struct frag_elems { enum { value = 8 }; };
template <> struct frag_elems<accumulator> { enum { value = 16 }; };
template <class Use, int M, int N, int K, class T, class Layout = void>
struct fragment {
  static_assert(M == 16 && N == 16 && K == 16, "m16n16k16 fragments only");
  typedef T element_type;
  typedef T storage_element_type;
  static constexpr int num_elements = frag_elems<Use>::value;
  T x[num_elements];
};
)pk";

const char *Ops32 = R"pk(
template <class Use, class T, class Layout>
__device__ inline typename detail::operand_only<Use>::type
load_matrix_sync(fragment<Use, 16, 16, 16, T, Layout> &f, const typename detail::id<T>::type *p,
                 unsigned ldm, bool live = true) {
  const int L = detail::lane(), m = L & 15, k = 4 * (L >> 5);
  const bool hi = (L & 16) != 0;
  // Both logical warps' values are read by the whole wave, then selected.
  const T *q0 = detail::warp_ptr(p, 0), *q1 = detail::warp_ptr(p, 32);
  const unsigned ld0 = detail::warp_ld(ldm, live, 0), ld1 = detail::warp_ld(ldm, live, 32);
  for (int h = 0; h < 2; ++h)
    detail::load_operand4<Use, Layout>(&f.x[4 * h], hi ? q1 : q0, hi ? ld1 : ld0, m, 8 * h + k);
}
__device__ inline void load_matrix_sync(fragment<accumulator, 16, 16, 16, float> &f,
                                        const float *p, unsigned ldm, layout_t layout,
                                        bool live = true) {
  const int L = detail::lane(), j = L & 15, i = 4 * (L >> 5);
  const bool hi = (L & 16) != 0;
  // Both logical warps' values are read by the whole wave, then selected.
  const float *q0 = detail::warp_ptr(p, 0), *q1 = detail::warp_ptr(p, 32);
  const unsigned ld0 = detail::warp_ld(ldm, live, 0), ld1 = detail::warp_ld(ldm, live, 32);
  const float *q = hi ? q1 : q0;
  const unsigned ld = hi ? ld1 : ld0;
  for (int n = 0; n < 8; ++n) {
    const int r = 8 * (n >> 2) + i + (n & 3);
    const float v = !ld ? 0.0f
                    : layout == mem_row_major ? q[r * ld + j] : q[j * ld + r];
    f.x[n] = hi ? 0.0f : v;
    f.x[8 + n] = hi ? v : 0.0f;
  }
}
__device__ inline void store_matrix_sync(float *p, const fragment<accumulator, 16, 16, 16, float> &f,
                                         unsigned ldm, layout_t layout, bool live = true) {
  const int L = detail::lane(), j = L & 15, i = 4 * (L >> 5);
  const bool hi = (L & 16) != 0;
  // Both logical warps' values are read by the whole wave, then selected.
  float *q0 = detail::warp_ptr(p, 0), *q1 = detail::warp_ptr(p, 32);
  const unsigned ld0 = detail::warp_ld(ldm, live, 0), ld1 = detail::warp_ld(ldm, live, 32);
  float *q = hi ? q1 : q0;
  const unsigned ld = hi ? ld1 : ld0;
  if (!ld)
    return;
  detail::f32x16 all;
  __builtin_memcpy(&all, &f.x[0], 64);
  float v[8];
  for (int n = 0; n < 8; ++n) {
    const float lo = all[n], up = all[8 + n];
    v[n] = hi ? up : lo;
  }
  if (layout == mem_row_major) {
    for (int n = 0; n < 8; ++n)
      q[(8 * (n >> 2) + i + (n & 3)) * ld + j] = v[n];
  } else {
    for (int h = 0; h < 2; ++h) {
      detail::f32x4 w;
      __builtin_memcpy(&w, &v[4 * h], 16);
      *(detail::f32x4 *)(q + j * ld + 8 * h + i) = w;
    }
  }
}
template <class TA, class LA, class TB, class LB>
__device__ inline void mma_sync(fragment<accumulator, 16, 16, 16, float> &d,
                                const fragment<matrix_a, 16, 16, 16, TA, LA> &a,
                                const fragment<matrix_b, 16, 16, 16, TB, LB> &b,
                                const fragment<accumulator, 16, 16, 16, float> &c,
                                bool satf = false) {
  (void)satf;
  detail::f32x16 acc;
  __builtin_memcpy(&acc, &c.x[0], 64);
  acc = detail::mfma32(&a.x[0], &b.x[0], acc);
  acc = detail::mfma32(&a.x[4], &b.x[4], acc);
  __builtin_memcpy(&d.x[0], &acc, 64);
}
} // namespace pk_mfma
#endif // PK_MFMA_WMMA_OPS
)pk";

// The matrix-core calls of one element type (@T@: the HIP type, @V@: its
// 4-element vector type, @E@: the vector's element, @B@: the builtin suffix).
const char *ElemOps = R"pk(
#ifndef PK_MFMA_WMMA_@G@
#define PK_MFMA_WMMA_@G@
// port-kernel: @N@ fragments -> v_mfma_f32_16x16x16@B@ / v_mfma_f32_32x32x8@B@@X@
namespace pk_mfma {
namespace detail {
typedef @E@ @V@ __attribute__((ext_vector_type(4)));
__device__ inline f32x4 mfma16(const @T@ *a, const @T@ *b, f32x4 c) {
  @V@ va, vb;
  __builtin_memcpy(&va, a, 8);
  __builtin_memcpy(&vb, b, 8);
  return __builtin_amdgcn_mfma_f32_16x16x16@B@(va, vb, c, 0, 0, 0);
}
__device__ inline f32x16 mfma32(const @T@ *a, const @T@ *b, f32x16 c) {
  @V@ va, vb;
  __builtin_memcpy(&va, a, 8);
  __builtin_memcpy(&vb, b, 8);
  return __builtin_amdgcn_mfma_f32_32x32x8@B@(va, vb, c, 0, 0, 0);
}
} // namespace detail
} // namespace pk_mfma
#endif // PK_MFMA_WMMA_@G@
)pk";

std::string
substitute(std::string Text,
           std::initializer_list<std::pair<const char *, const char *>> Subst) {
  for (const auto &[Key, Value] : Subst)
    for (size_t At = Text.find(Key); At != std::string::npos;
         At = Text.find(Key, At + std::strlen(Value)))
      Text.replace(At, std::strlen(Key), Value);
  return Text;
}

const char *WarpTilesSource = R"pk(
#ifndef PK_MFMA_WARP_TILES
#define PK_MFMA_WARP_TILES
// port-kernel: a logical warp's 2x2 groups of 16x16 fragments -> 32x32 tiles
// on v_mfma_f32_32x32x8 [PK3005]
// fragment_array<F, R> holds the fragments of `F a[R]` (matrix_a: fragment i
// covers rows 16i .. 16i+15; matrix_b: columns 16i .. 16i+15) and
// fragment_array<F, R, C> those of `F acc[R][C]` (accumulator), R and C even,
// as 32x32 tiles: fragments 2g and 2g+1 are the halves of tile g.  Each
// logical warp t (lanes 32t .. 32t+31) keeps its own tiles; lane L holds, for
// warp t, k-half h (k 0-7, 8-15 of the 16-wide step) and e, r = 0..3 / 0..15:
//   A: x[g][t][h][e] = A_t[32g + L % 32][8h + 4 (L / 32) + e]
//   B: x[g][t][h][e] = B_t[8h + 4 (L / 32) + e][32g + L % 32]
//   accumulator: x[gi][gj][t][r] = C_t[32gi + 8 (r / 4) + 4 (L / 32) + r % 4][32gj + L % 32]
// Fragment i is the part of tile i / 2 in the lanes with (L / 16) % 2 == i % 2
// (and, for an accumulator, registers 8 (i % 2) .. 8 (i % 2) + 7): one
// v_mfma_f32_32x32x8 per tile and k-step of 8 computes 32x32 results, none
// of them discarded.  Indices select registers through comparisons only, so
// loops over the fragments need not be unrolled to stay in registers.
namespace pk_mfma {
template <class Frag, int R, int C = 0> struct fragment_array;
/// a[i] of a matrix_a / matrix_b array, acc[i][j] of an accumulator array.
template <class FA> struct fragment_ref { FA &f; int i, j; };
template <class FA> struct fragment_row {
  FA &f;
  int i;
  __device__ fragment_ref<FA> operator[](int j) const { return {f, i, j}; }
};
template <class Use, class T, class Layout, int R>
struct fragment_array<fragment<Use, 16, 16, 16, T, Layout>, R, 0> {
  static_assert(R % 2 == 0, "fragments are paired into 32-wide tiles");
  T x[R / 2][2][2][4];
  __device__ fragment_ref<fragment_array> operator[](int i) { return {*this, i, 0}; }
  __device__ fragment_ref<const fragment_array> operator[](int i) const { return {*this, i, 0}; }
};
template <int R, int C>
struct fragment_array<fragment<accumulator, 16, 16, 16, float>, R, C> {
  static_assert(R % 2 == 0 && C % 2 == 0, "fragments are grouped into 32x32 tiles");
  float x[R / 2][C / 2][2][16];
  __device__ fragment_row<fragment_array> operator[](int i) { return {*this, i}; }
  __device__ fragment_row<const fragment_array> operator[](int i) const { return {*this, i}; }
};

namespace detail {
/// This lane holds part of fragment i of a pair.
__device__ inline bool holds(int i) { return ((lane() >> 4) & 1) == (i & 1); }
/// Row of accumulator register s (0..7 of a fragment's 8) in its fragment.
__device__ inline int acc_row(int s) { return 8 * (s >> 2) + 4 * (lane() >> 5) + (s & 3); }
template <class Use, class Layout, class T, int R>
__device__ inline void load_tile(T (&x)[R / 2][2][2][4], int i, const T *p, unsigned ldm,
                                 bool live) {
  const int L = lane(), m = L & 15, k = 4 * (L >> 5);
  const bool mine = holds(i);
  for (int t = 0; t < 2; ++t) {
    const T *q = warp_ptr(p, 32 * t);
    const unsigned ld = warp_ld(ldm, live, 32 * t);
    for (int g = 0; g < R / 2; ++g) {
      if (g != (i >> 1) || !mine)
        continue;
      for (int h = 0; h < 2; ++h)
        load_operand4<Use, Layout>(x[g][t][h], q, ld, m, 8 * h + k);
    }
  }
}
} // namespace detail

template <class Use, class T, class Layout, int R>
__device__ inline typename detail::operand_only<Use>::type load_matrix_sync(
    fragment_ref<fragment_array<fragment<Use, 16, 16, 16, T, Layout>, R>> f,
    const typename detail::id<T>::type *p, unsigned ldm, bool live = true) {
  detail::load_tile<Use, Layout, T, R>(f.f.x, f.i, p, ldm, live);
}
template <class Use, class T, class Layout, int R>
__device__ inline void fill_fragment(
    fragment_ref<fragment_array<fragment<Use, 16, 16, 16, T, Layout>, R>> f,
    const typename detail::id<T>::type &v) {
  if (!detail::holds(f.i))
    return;
  for (int g = 0; g < R / 2; ++g)
    for (int t = 0; t < 2; ++t)
      for (int h = 0; h < 2; ++h)
        for (int e = 0; e < 4; ++e)
          if (g == (f.i >> 1))
            f.f.x[g][t][h][e] = v;
}

template <int R, int C>
__device__ inline void fill_fragment(
    fragment_ref<fragment_array<fragment<accumulator, 16, 16, 16, float>, R, C>> f,
    float v) {
  if (!detail::holds(f.j))
    return;
  for (int gi = 0; gi < R / 2; ++gi)
    for (int gj = 0; gj < C / 2; ++gj)
      for (int t = 0; t < 2; ++t)
        for (int r = 0; r < 16; ++r)
          if (gi == (f.i >> 1) && gj == (f.j >> 1) && (r >> 3) == (f.i & 1))
            f.f.x[gi][gj][t][r] = v;
}
template <int R, int C>
__device__ inline void load_matrix_sync(
    fragment_ref<fragment_array<fragment<accumulator, 16, 16, 16, float>, R, C>> f,
    const float *p, unsigned ldm, layout_t layout, bool live = true) {
  const int m = detail::lane() & 15;
  const bool mine = detail::holds(f.j);
  for (int t = 0; t < 2; ++t) {
    const float *q = detail::warp_ptr(p, 32 * t);
    const unsigned ld = detail::warp_ld(ldm, live, 32 * t);
    for (int gi = 0; gi < R / 2; ++gi)
      for (int gj = 0; gj < C / 2; ++gj)
        for (int r = 0; r < 16; ++r) {
          if (!mine || gi != (f.i >> 1) || gj != (f.j >> 1) || (r >> 3) != (f.i & 1))
            continue;
          const int row = detail::acc_row(r & 7);
          f.f.x[gi][gj][t][r] = !ld ? 0.0f
                                : layout == mem_row_major ? q[row * ld + m]
                                                          : q[m * ld + row];
        }
  }
}
namespace detail {
template <int R, int C>
__device__ inline void store_tile(float *p, const float (&x)[R / 2][C / 2][2][16], int i, int j,
                                  unsigned ldm, layout_t layout, bool live) {
  const int m = lane() & 15;
  const bool mine = holds(j);
  for (int t = 0; t < 2; ++t) {
    float *q = warp_ptr(p, 32 * t);
    const unsigned ld = warp_ld(ldm, live, 32 * t);
    if (!ld || !mine)
      continue;
    for (int gi = 0; gi < R / 2; ++gi)
      for (int gj = 0; gj < C / 2; ++gj)
        for (int r = 0; r < 16; ++r) {
          if (gi != (i >> 1) || gj != (j >> 1) || (r >> 3) != (i & 1))
            continue;
          const int row = acc_row(r & 7);
          if (layout == mem_row_major)
            q[row * ld + m] = x[gi][gj][t][r];
          else
            q[m * ld + row] = x[gi][gj][t][r];
        }
  }
}
} // namespace detail
template <int R, int C>
__device__ inline void store_matrix_sync(
    float *p, fragment_ref<fragment_array<fragment<accumulator, 16, 16, 16, float>, R, C>> f,
    unsigned ldm, layout_t layout, bool live = true) {
  detail::store_tile<R, C>(p, f.f.x, f.i, f.j, ldm, layout, live);
}
template <int R, int C>
__device__ inline void store_matrix_sync(
    float *p, fragment_ref<const fragment_array<fragment<accumulator, 16, 16, 16, float>, R, C>> f,
    unsigned ldm, layout_t layout, bool live = true) {
  detail::store_tile<R, C>(p, f.f.x, f.i, f.j, ldm, layout, live);
}

/// for i, j: mma_sync(d[i][j], a[i], b[j], c[i][j]) -- one v_mfma_f32_32x32x8
/// per 32x32 tile, logical warp and k-step of 8.
template <class TA, class LA, class TB, class LB, int R, int C>
__device__ inline void mma_sync(fragment_array<fragment<accumulator, 16, 16, 16, float>, R, C> &d,
                                const fragment_array<fragment<matrix_a, 16, 16, 16, TA, LA>, R> &a,
                                const fragment_array<fragment<matrix_b, 16, 16, 16, TB, LB>, C> &b,
                                const fragment_array<fragment<accumulator, 16, 16, 16, float>, R, C> &c) {
  for (int gi = 0; gi < R / 2; ++gi)
    for (int gj = 0; gj < C / 2; ++gj)
      for (int t = 0; t < 2; ++t) {
        detail::f32x16 acc;
        __builtin_memcpy(&acc, c.x[gi][gj][t], 64);
        for (int h = 0; h < 2; ++h)
          acc = detail::mfma32(a.x[gi][t][h], b.x[gj][t][h], acc);
        __builtin_memcpy(d.x[gi][gj][t], &acc, 64);
      }
}
} // namespace pk_mfma
#endif // PK_MFMA_WARP_TILES
)pk";

const char *PtxMma = R"pk(
#ifndef PK_MFMA_PTX_MMA
#define PK_MFMA_PTX_MMA
#include <hip/hip_runtime.h>
// port-kernel: inline PTX mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 on
// AMD matrix cores [PK3002].  The registers keep the PTX layout of each 32-lane
// logical warp (g = lane / 4, t = lane % 4 within the warp):
//   a0..a3: half2 of A[g + 8 (q % 2)][2t + 8 (q / 2) + {0,1}]
//   b0, b1: half2 of B[2t + 8q + {0,1}][g]
//   c/d 0..3: C[g + 8 (q / 2)][2t + q % 2]
// Each logical warp's m16n8k16 product runs as one v_mfma_f32_16x16x16f16:
// warp t's B and C take columns 8t .. 8t+7 of MFMA t (lanes with (L % 16) / 8
// == t), the other columns are zero.  The operands are moved into the MFMA
// lane layout and the result back with 14 wave-wide shuffles: in every round
// each lane sends one of its registers to one lane and receives one.  Both
// logical warps of a wave call this together.
namespace pk_mfma_ptx {
typedef _Float16 f16x4 __attribute__((ext_vector_type(4)));
typedef float f32x4 __attribute__((ext_vector_type(4)));
typedef unsigned u32x2 __attribute__((ext_vector_type(2)));
template <class T> __device__ inline T pick4(T v0, T v1, T v2, T v3, int i) {
  return i == 0 ? v0 : i == 1 ? v1 : i == 2 ? v2 : v3;
}
__device__ inline f16x4 halves(unsigned lo, unsigned hi) {
  const u32x2 w = {lo, hi};
  f16x4 h;
  __builtin_memcpy(&h, &w, 8);
  return h;
}
} // namespace pk_mfma_ptx

__device__ inline void __pk_mma_m16n8k16_f16f32(float &d0, float &d1, float &d2, float &d3,
                                                unsigned a0, unsigned a1, unsigned a2,
                                                unsigned a3, unsigned b0, unsigned b1,
                                                float c0, float c1, float c2, float c3) {
  using namespace pk_mfma_ptx;
  const int L = (int)__lane_id();
  const int x = L & 15, grp = L >> 4; // MFMA operand lane: A row / B, C column; k or row group
  const int t = x >> 3;               // the logical warp whose B and C this lane holds
  // A: both MFMAs need their warp's A in every lane: A_u[x][4 grp .. 4 grp + 3] is
  // register qa of PTX lanes sa (low pair) and sa + 1 (high pair) of warp u.
  // Lane s sends register (j + s % 2 + 2 (s / 32)) % 4 in round j: its four
  // registers go to four lanes, and each lane receives its four pairs.
  const int qa = (x >> 3) + 2 * (grp >> 1), sa = 4 * (x & 7) + 2 * (grp & 1);
  unsigned ar[4] = {0u, 0u, 0u, 0u}; // warp 0 low, high, warp 1 low, high
  for (int j = 0; j < 4; ++j) {
    const unsigned v = pick4(a0, a1, a2, a3, (j + (L & 1) + 2 * (L >> 5)) & 3);
    const int c = (qa - j) & 3; // the pair received: warp c / 2, high when c is odd
    const unsigned w = __shfl(v, sa + (c & 1) + 32 * (c >> 1), 64);
    for (int n = 0; n < 4; ++n)
      if (c == n) ar[n] = w;
  }
  // B: lane L needs B_t[4 grp .. 4 grp + 3][x % 8]: register grp / 2 of PTX
  // lanes sb and sb + 1 of warp t.  Round j: every lane sends register
  // (j + lane % 2) % 2.
  const int qb = grp >> 1, sb = 32 * t + 4 * (x & 7) + 2 * (grp & 1);
  unsigned br[2] = {0u, 0u};
  for (int j = 0; j < 2; ++j) {
    const unsigned v = ((j + (L & 1)) & 1) ? b1 : b0;
    const int h = (qb + j) & 1;
    const unsigned w = __shfl(v, sb + h, 64);
    if (h) br[1] = w;
    else br[0] = w;
  }
  // C: register r of lane L is C_t[4 grp + r][x % 8]: register qc of PTX lane
  // 32t + 4 (4 (grp % 2) + r) + (x % 8) / 2.  Round k: every lane sends
  // register (k + lane / 4) % 4 and receives its register (qc - k) % 4.
  const int qc = 2 * (grp >> 1) + (x & 1);
  float cr[4] = {0.f, 0.f, 0.f, 0.f};
  for (int k = 0; k < 4; ++k) {
    const float v = pick4(c0, c1, c2, c3, (k + (L >> 2)) & 3);
    const int r = (qc - k) & 3;
    const float w = __shfl(v, 32 * t + 4 * (4 * (grp & 1) + r) + ((x & 7) >> 1), 64);
    for (int n = 0; n < 4; ++n)
      if (r == n) cr[n] = w;
  }
  const f16x4 bz = halves(0u, 0u), bv = halves(br[0], br[1]);
  const f32x4 cz = {0.f, 0.f, 0.f, 0.f}, cv = {cr[0], cr[1], cr[2], cr[3]};
  const f32x4 dm0 = __builtin_amdgcn_mfma_f32_16x16x16f16(halves(ar[0], ar[1]), t ? bz : bv,
                                                          t ? cz : cv, 0, 0, 0);
  const f32x4 dm1 = __builtin_amdgcn_mfma_f32_16x16x16f16(halves(ar[2], ar[3]), t ? bv : bz,
                                                          t ? cv : cz, 0, 0, 0);
  const f32x4 dm = t ? dm1 : dm0; // this lane's columns belong to warp t
  // D: PTX register q of lane l (w = l / 32, g = (l % 32) / 4, tq = l % 4) is
  // D_w[g + 8 (q / 2)][2 tq + q % 2]: register g % 4 of lane 16 (g / 4 + 2 (q / 2))
  // + 8w + 2 tq + q % 2.  Round k: every lane sends register (k + 2 (lane / 32)
  // + lane % 2) % 4 and receives its register (g - k) % 4.
  const int g = (L >> 2) & 7, tq = L & 3, w = L >> 5;
  float dq[4] = {0.f, 0.f, 0.f, 0.f};
  for (int k = 0; k < 4; ++k) {
    const float v = pick4(dm[0], dm[1], dm[2], dm[3], (k + 2 * (L >> 5) + (L & 1)) & 3);
    const int q = ((g & 3) - k) & 3;
    const float got = __shfl(v, 16 * ((g >> 2) + 2 * (q >> 1)) + 8 * w + 2 * tq + (q & 1), 64);
    for (int n = 0; n < 4; ++n)
      if (q == n) dq[n] = got;
  }
  d0 = dq[0];
  d1 = dq[1];
  d2 = dq[2];
  d3 = dq[3];
}
#endif // PK_MFMA_PTX_MMA
)pk";

} // namespace

std::string mfma::wmmaCoreHelpers(MfmaShape S) {
  return std::string(Prologue) + (S == MfmaShape::M32N32K8 ? Frag32 : Frag16) +
         Fill;
}

std::string mfma::wmmaOpsHelpers(MfmaShape S) {
  return std::string(OpsOpen) + (S == MfmaShape::M32N32K8 ? Ops32 : Ops16);
}

std::string mfma::wmmaF16Helpers() {
  return substitute(ElemOps, {{"@G@", "F16"},
                              {"@N@", "half"},
                              {"@X@", " [PK3001]"},
                              {"@T@", "__half"},
                              {"@V@", "f16x4"},
                              {"@E@", "_Float16"},
                              {"@B@", "f16"}});
}

std::string mfma::wmmaBF16Helpers(bool Rocm6) {
  // ROCm 6's bfloat16 is __hip_bfloat16 (PK1016); ROCm 5's hip_bfloat16.
  return substitute(
      ElemOps,
      {{"@G@", "BF16"},
       {"@N@", "bf16"},
       {"@X@", "\n// (gfx90a, gfx94x) [PK3001, PK3012]\n"
               "#if defined(__gfx908__)\n"
               "#error \"bf16 matrix cores (the _1k MFMA instructions) "
               "need gfx90a or newer [PK3012]\"\n"
               "#endif"},
       {"@T@", Rocm6 ? "__hip_bfloat16" : "hip_bfloat16"},
       {"@V@", "bf16x4"},
       {"@E@", "short"},
       {"@B@", "bf16_1k"}});
}

std::string mfma::warpTileHelpers() { return WarpTilesSource; }

std::string mfma::ptxMmaHelpers() { return PtxMma; }
