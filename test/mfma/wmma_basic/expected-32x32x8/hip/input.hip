// WMMA GEMM tiles: half and bf16 inputs, float accumulation, one 16x16 tile
// per warp, with an early return for warps past the matrix edge.
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#include <hip/hip_bf16.h>

#ifndef PK_MFMA_WMMA
#define PK_MFMA_WMMA
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

#ifndef PK_MFMA_WMMA_BF16
#define PK_MFMA_WMMA_BF16
// port-kernel: bf16 fragments -> v_mfma_f32_16x16x16bf16_1k / v_mfma_f32_32x32x8bf16_1k
// (gfx90a, gfx94x) [PK3001, PK3012]
#if defined(__gfx908__)
#error "bf16 matrix cores (the _1k MFMA instructions) need gfx90a or newer [PK3012]"
#endif
namespace pk_mfma {
namespace detail {
typedef short bf16x4 __attribute__((ext_vector_type(4)));
__device__ inline f32x4 mfma16(const __hip_bfloat16 *a, const __hip_bfloat16 *b, f32x4 c) {
  bf16x4 va, vb;
  __builtin_memcpy(&va, a, 8);
  __builtin_memcpy(&vb, b, 8);
  return __builtin_amdgcn_mfma_f32_16x16x16bf16_1k(va, vb, c, 0, 0, 0);
}
__device__ inline f32x16 mfma32(const __hip_bfloat16 *a, const __hip_bfloat16 *b, f32x16 c) {
  bf16x4 va, vb;
  __builtin_memcpy(&va, a, 8);
  __builtin_memcpy(&vb, b, 8);
  return __builtin_amdgcn_mfma_f32_32x32x8bf16_1k(va, vb, c, 0, 0, 0);
}
} // namespace detail
} // namespace pk_mfma
#endif // PK_MFMA_WMMA_BF16

#ifndef PK_MFMA_WMMA_OPS
#define PK_MFMA_WMMA_OPS
namespace pk_mfma {

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


#define WARP_SIZE 32

__global__ void hgemm(const half *A, const half *B, float *C, int M, int N,
                      int K) {
  const int warpId = threadIdx.x / WARP_SIZE;
  const int tileRow = blockIdx.y * 2 + warpId / 2;
  const int tileCol = blockIdx.x * 2 + warpId % 2;
  const bool __pk_mfma_live = !(tileRow * 16 >= M || tileCol * 16 >= N);
  if (!__any(__pk_mfma_live))
    return; // the whole warp skips a tile outside C

  // port-kernel: note: 'a', 'b', 'acc' are not part of a logical warp's 32x32 tile: with --mfma-shape=32x32x8 one v_mfma_f32_32x32x8 computes the 16x16 tiles of both logical warps of a wave as its diagonal blocks and discards the other half of its products; --mfma-shape=auto uses v_mfma_f32_16x16x16 for such fragments [PK3016]
  pk_mfma::fragment<pk_mfma::matrix_a, 16, 16, 16, half, pk_mfma::row_major> a;
  pk_mfma::fragment<pk_mfma::matrix_b, 16, 16, 16, half, pk_mfma::row_major> b;
  pk_mfma::fragment<pk_mfma::accumulator, 16, 16, 16, float> acc;
  pk_mfma::fill_fragment(acc, 0.0f);
  for (int k = 0; k < K; k += 16) {
    pk_mfma::load_matrix_sync(a, A + (size_t)tileRow * 16 * K + k, K, __pk_mfma_live);
    pk_mfma::load_matrix_sync(b, B + (size_t)k * N + tileCol * 16, N, __pk_mfma_live);
    pk_mfma::mma_sync(acc, a, b, acc);
  }
  pk_mfma::store_matrix_sync(C + (size_t)tileRow * 16 * N + tileCol * 16, acc, N,
                          pk_mfma::mem_row_major, __pk_mfma_live);
}

// port-kernel: note: this output depends on --rocm-version (here 6): the bfloat16 types, header and conversions of ROCm 6 [PK1016]
__global__ void bf16_gemm_scaled(const __hip_bfloat16 *A,
                                 const __hip_bfloat16 *Bt, float *C, int N,
                                 int K, float alpha) {
  const int warpId = threadIdx.x / WARP_SIZE;
  const int tileRow = blockIdx.y * 2 + warpId / 2;
  const int tileCol = blockIdx.x * 2 + warpId % 2;
  // port-kernel: note: bf16 fragments use __builtin_amdgcn_mfma_f32_32x32x8bf16_1k: the output runs on gfx90a (MI200), gfx940/941/942 (MI300) and newer CDNA GPUs, not on gfx908 (MI100), which has no bf16_1k matrix instructions [PK3012]
  // port-kernel: note: 'a', 'b', 'acc' are not part of a logical warp's 32x32 tile: with --mfma-shape=32x32x8 one v_mfma_f32_32x32x8 computes the 16x16 tiles of both logical warps of a wave as its diagonal blocks and discards the other half of its products; --mfma-shape=auto uses v_mfma_f32_16x16x16 for such fragments [PK3016]
  pk_mfma::fragment<pk_mfma::matrix_a, 16, 16, 16, __hip_bfloat16, pk_mfma::row_major> a;
  pk_mfma::fragment<pk_mfma::matrix_b, 16, 16, 16, __hip_bfloat16, pk_mfma::col_major> b;
  pk_mfma::fragment<pk_mfma::accumulator, 16, 16, 16, float> acc;
  pk_mfma::fill_fragment(acc, 0.0f);
  for (int k = 0; k < K; k += 16) {
    pk_mfma::load_matrix_sync(a, A + (size_t)tileRow * 16 * K + k, K);
    pk_mfma::load_matrix_sync(b, Bt + (size_t)tileCol * 16 * K + k, K);
    pk_mfma::mma_sync(acc, a, b, acc);
  }
  for (int i = 0; i < acc.num_elements; ++i)
    acc.x[i] *= alpha;
  pk_mfma::store_matrix_sync(C + (size_t)tileRow * 16 * N + tileCol * 16, acc, N,
                          pk_mfma::mem_col_major);
}
