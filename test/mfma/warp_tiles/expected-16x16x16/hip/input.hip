// PK3005: arrays of fragments that one loop nest multiplies become 32x32
// tiles; PK3016: what happens to the fragments that do not.
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>

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

template <class Use, int M, int N, int K, class T, class Layout>
__device__ inline void fill_fragment(fragment<Use, M, N, K, T, Layout> &f,
                                     const typename detail::id<T>::type &v) {
  for (int i = 0; i < f.num_elements; ++i)
    f.x[i] = v;
}
} // namespace pk_mfma
#endif // PK_MFMA_WMMA

#ifndef PK_MFMA_WMMA_F16
#define PK_MFMA_WMMA_F16
// port-kernel: half fragments -> v_mfma_f32_16x16x16f16 / v_mfma_f32_32x32x8f16 [PK3001]
namespace pk_mfma {
namespace detail {
typedef _Float16 f16x4 __attribute__((ext_vector_type(4)));
__device__ inline f32x4 mfma16(const __half *a, const __half *b, f32x4 c) {
  f16x4 va, vb;
  __builtin_memcpy(&va, a, 8);
  __builtin_memcpy(&vb, b, 8);
  return __builtin_amdgcn_mfma_f32_16x16x16f16(va, vb, c, 0, 0, 0);
}
__device__ inline f32x16 mfma32(const __half *a, const __half *b, f32x16 c) {
  f16x4 va, vb;
  __builtin_memcpy(&va, a, 8);
  __builtin_memcpy(&vb, b, 8);
  return __builtin_amdgcn_mfma_f32_32x32x8f16(va, vb, c, 0, 0, 0);
}
} // namespace detail
} // namespace pk_mfma
#endif // PK_MFMA_WMMA_F16

#ifndef PK_MFMA_WMMA_OPS
#define PK_MFMA_WMMA_OPS
namespace pk_mfma {

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


// Fused: a[2], b[2], acc[2][2], braced nest with pragmas.
__global__ void tiles(const half *A, const half *B, float *C, int lda, int ldb,
                      int ldc) {
  pk_mfma::fragment<pk_mfma::matrix_a, 16, 16, 16, half, pk_mfma::row_major> a[2];
  pk_mfma::fragment<pk_mfma::matrix_b, 16, 16, 16, half, pk_mfma::row_major> b[2];
  pk_mfma::fragment<pk_mfma::accumulator, 16, 16, 16, float> acc[2][2];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      pk_mfma::fill_fragment(acc[i][j], 0.0f);
  for (int i = 0; i < 2; ++i)
    pk_mfma::load_matrix_sync(a[i], A + i * 16 * lda, lda);
  for (int j = 0; j < 2; ++j)
    pk_mfma::load_matrix_sync(b[j], B + j * 16, ldb);
#pragma unroll
  for (int i = 0; i < 2; ++i) {
#pragma unroll
    for (int j = 0; j < 2; ++j) {
      pk_mfma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
    }
  }
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      pk_mfma::store_matrix_sync(C + i * 16 * ldc + j * 16, acc[i][j], ldc,
                              pk_mfma::mem_row_major);
}

// Not fused: the accumulators are scaled element by element.
__global__ void scaled(const half *A, const half *B, float *C, int ld) {
  pk_mfma::fragment<pk_mfma::matrix_a, 16, 16, 16, half, pk_mfma::row_major> a[2];
  pk_mfma::fragment<pk_mfma::matrix_b, 16, 16, 16, half, pk_mfma::col_major> b[2];
  pk_mfma::fragment<pk_mfma::accumulator, 16, 16, 16, float> acc[2][2];
  for (int i = 0; i < 2; ++i) {
    pk_mfma::load_matrix_sync(a[i], A + i * 16 * ld, ld);
    pk_mfma::load_matrix_sync(b[i], B + i * 16 * ld, ld);
  }
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) {
      pk_mfma::fill_fragment(acc[i][j], 0.0f);
      pk_mfma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
    }
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) {
      for (int e = 0; e < acc[i][j].num_elements; ++e)
        acc[i][j].x[e] *= 0.5f;
      pk_mfma::store_matrix_sync(C + i * 16 * ld + j * 16, acc[i][j], ld,
                              pk_mfma::mem_row_major);
    }
}

// Not fused: one fragment per warp.
__global__ void single(const half *A, const half *B, float *C, int ld) {
  pk_mfma::fragment<pk_mfma::matrix_a, 16, 16, 16, half, pk_mfma::row_major> a;
  pk_mfma::fragment<pk_mfma::matrix_b, 16, 16, 16, half, pk_mfma::row_major> b;
  pk_mfma::fragment<pk_mfma::accumulator, 16, 16, 16, float> acc;
  pk_mfma::fill_fragment(acc, 0.0f);
  pk_mfma::load_matrix_sync(a, A, ld);
  pk_mfma::load_matrix_sync(b, B, ld);
  pk_mfma::mma_sync(acc, a, b, acc);
  pk_mfma::store_matrix_sync(C, acc, ld, pk_mfma::mem_row_major);
}
