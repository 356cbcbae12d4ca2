// PK3017: which shared tiles get a new row pitch, and why others keep theirs.
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


typedef pk_mfma::fragment<pk_mfma::matrix_a, 16, 16, 16, __half, pk_mfma::row_major> FragA;
typedef pk_mfma::fragment<pk_mfma::accumulator, 16, 16, 16, float> FragC;

__device__ float sum(const FragA &a) {
  float s = 0.0f;
  for (int e = 0; e < a.num_elements; ++e)
    s += __half2float(a.x[e]);
  return s;
}

__device__ void stage(__half *dst, const __half *src) {
  for (int i = threadIdx.x; i < 16 * 24; i += blockDim.x)
    dst[i] = src[i];
}

// Re-planned: rows reached through a decayed row pointer, in a template.
template <int Scale>
__global__ void replanned(const __half *g, float *out) {
  // port-kernel: note: row pitch of 'T' 24 -> 28 elements (48 -> 56 bytes): the MFMA fragment loads and stores (v_mfma_f32_16x16x16) take 16 -> 8 LDS cycles (conflict-free: 8; 32 banks x 4 bytes, 128 bytes per phase); shared memory +256 bytes [PK3017]
  __shared__ __half T[32][24 + 4];
  for (int i = threadIdx.x; i < 32 * 16; i += blockDim.x)
    T[i / 16][i % 16] = g[i];
  __syncthreads();
  FragA a;
  pk_mfma::load_matrix_sync(a, T[(threadIdx.x / 32) * 16], 24 + 4);
  out[threadIdx.x] = Scale * sum(a);
}
template __global__ void replanned<2>(const __half *, float *);

// Kept: a pointer to the tile is passed on.
__global__ void passed_on(const __half *g, float *out) {
  // port-kernel: note: 'P': the MFMA fragment loads and stores (v_mfma_f32_16x16x16) take 16 LDS cycles where 8 would be conflict-free, but the row pitch is kept: line 38 uses 'P' other than as an element [PK3017]
  __shared__ __half P[16][24];
  stage(&P[0][0], g);
  __syncthreads();
  FragA a;
  pk_mfma::load_matrix_sync(a, &P[0][0], 24);
  out[threadIdx.x] = sum(a);
}

// Kept: its size is taken.
__global__ void sized(const __half *g, float *out) {
  // port-kernel: note: 'S': the MFMA fragment loads and stores (v_mfma_f32_16x16x16) take 16 LDS cycles where 8 would be conflict-free, but the row pitch is kept: line 48 uses 'S' other than as an element [PK3017]
  __shared__ __half S[16][24];
  for (unsigned i = threadIdx.x; i < sizeof(S) / sizeof(__half); i += blockDim.x)
    S[i / 24][i % 24] = g[i];
  __syncthreads();
  FragA a;
  pk_mfma::load_matrix_sync(a, &S[0][0], 24);
  out[threadIdx.x] = sum(a);
}

// Kept: the leading dimension is written inside a macro body.
#define LOAD_ROWS(f, r) pk_mfma::load_matrix_sync(f, &Mb[r][0], 24)
__global__ void in_macro(const __half *g, float *out) {
  // port-kernel: note: 'Mb': the row pitch is kept: the leading dimension at line 64 is written inside a macro [PK3017]
  __shared__ __half Mb[16][24];
  for (int i = threadIdx.x; i < 16 * 16; i += blockDim.x)
    Mb[i / 16][i % 16] = g[i];
  __syncthreads();
  FragA a;
  LOAD_ROWS(a, 0);
  out[threadIdx.x] = sum(a);
}

// Kept: the array type is an alias.
typedef __half Tile[16][24];
__global__ void aliased(const __half *g, float *out) {
  // port-kernel: note: 'Al': the row pitch is kept: its array type is named through an alias [PK3017]
  __shared__ Tile Al;
  for (int i = threadIdx.x; i < 16 * 16; i += blockDim.x)
    Al[i / 16][i % 16] = g[i];
  __syncthreads();
  FragA a;
  pk_mfma::load_matrix_sync(a, &Al[0][0], 24);
  out[threadIdx.x] = sum(a);
}

// Kept: the growth would not fit in 64 KiB.
__global__ void too_big(const __half *g, float *out) {
  // port-kernel: note: 'Big': the row pitch is kept: 10880 more bytes of shared memory would exceed the 64 KiB of LDS [PK3017]
  __shared__ __half Big[1360][24];
  for (int i = threadIdx.x; i < 1360 * 16; i += blockDim.x)
    Big[i / 16][i % 16] = g[i];
  __syncthreads();
  FragA a;
  pk_mfma::load_matrix_sync(a, &Big[(threadIdx.x / 32) * 16][0], 24);
  out[threadIdx.x] = sum(a);
}

// Kept: 2 workgroups fit in a CU's LDS now, 1 after the growth.
__global__ void occupancy(const __half *g, float *out) {
  // port-kernel: note: 'Oc': the row pitch is kept: 5376 more bytes of shared memory would lower the workgroups that fit in a CU from 2 to 1 (64 KiB of LDS); the MFMA fragment loads and stores (v_mfma_f32_16x16x16) take 16 LDS cycles where 8 would be conflict-free, 8 with a pitch of 28 (--lds-padding=always re-plans it anyway) [PK3017]
  __shared__ __half Oc[672][24];
  for (int i = threadIdx.x; i < 672 * 16; i += blockDim.x)
    Oc[i / 16][i % 16] = g[i];
  __syncthreads();
  FragA a;
  pk_mfma::load_matrix_sync(a, &Oc[(threadIdx.x / 32) * 16][0], 24);
  out[threadIdx.x] = sum(a);
}

// The growth adds up: 'X' is re-planned (2 workgroups still fit), 'Y' is
// kept (with both, only 1 would).
__global__ void two_tiles(const __half *g, float *out) {
  // port-kernel: note: row pitch of 'X' 24 -> 28 elements (48 -> 56 bytes): the MFMA fragment loads and stores (v_mfma_f32_16x16x16) take 16 -> 8 LDS cycles (conflict-free: 8; 32 banks x 4 bytes, 128 bytes per phase); shared memory +2432 bytes [PK3017]
  __shared__ __half X[304][24 + 4];
  // port-kernel: note: 'Y': the row pitch is kept: 2432 more bytes of shared memory would lower the workgroups that fit in a CU from 2 to 1 (64 KiB of LDS); the MFMA fragment loads and stores (v_mfma_f32_16x16x16) take 16 LDS cycles where 8 would be conflict-free, 8 with a pitch of 28 (--lds-padding=always re-plans it anyway) [PK3017]
  __shared__ __half Y[304][24];
  for (int i = threadIdx.x; i < 304 * 16; i += blockDim.x) {
    X[i / 16][i % 16] = g[i];
    Y[i / 16][i % 16] = g[i];
  }
  __syncthreads();
  FragA a, b;
  pk_mfma::load_matrix_sync(a, &X[(threadIdx.x / 32) * 16][0], 24 + 4);
  pk_mfma::load_matrix_sync(b, &Y[(threadIdx.x / 32) * 16][0], 24);
  out[threadIdx.x] = sum(a) + sum(b);
}

// Re-planned: 5 -> 4 workgroups by LDS, but 1024-thread blocks (16 waves)
// fit only 2 to a CU anyway.
__global__ void __launch_bounds__(1024) big_blocks(const __half *g, float *out) {
  // port-kernel: note: row pitch of 'Lb' 24 -> 28 elements (48 -> 56 bytes): the MFMA fragment loads and stores (v_mfma_f32_16x16x16) take 16 -> 8 LDS cycles (conflict-free: 8; 32 banks x 4 bytes, 128 bytes per phase); shared memory +2048 bytes [PK3017]
  __shared__ __half Lb[256][24 + 4];
  for (int i = threadIdx.x; i < 256 * 16; i += blockDim.x)
    Lb[i / 16][i % 16] = g[i];
  __syncthreads();
  FragA a;
  pk_mfma::load_matrix_sync(a, &Lb[(threadIdx.x / 32) * 16 % 256][0], 24 + 4);
  out[threadIdx.x] = sum(a);
}

// Advice only: dynamic shared memory with a hand-made pitch of 24 halves.
#define LDA 24
__global__ void dynamic(const __half *g, float *out) {
  extern __shared__ __half smem[];
  __half *As = smem + 64;
  for (int i = threadIdx.x; i < 32 * 16; i += blockDim.x)
    As[(i / 16) * LDA + i % 16] = g[i];
  __syncthreads();
  FragA a;
  // port-kernel: note: the MFMA fragment loads and stores on 'smem' with leading dimension 24 (v_mfma_f32_16x16x16) take 16 LDS cycles; with a row pitch and leading dimension of 28 they would take 8 (conflict-free: 8). The pitch is not re-planned here: only __shared__ arrays of constant size reached as S[i][j] are [PK3017]
  pk_mfma::load_matrix_sync(a, As + (threadIdx.x / 32) * 16 * LDA, LDA);
  out[threadIdx.x] = sum(a);
}

// Advice only: a 1-D array with a hand-made pitch; no advice for pitch 28.
__global__ void flat_rows(const __half *g, float *out) {
  __shared__ __half R1[32 * 24];
  __shared__ __half R2[32 * 28];
  for (int i = threadIdx.x; i < 32 * 16; i += blockDim.x) {
    R1[(i / 16) * 24 + i % 16] = g[i];
    R2[(i / 16) * 28 + i % 16] = g[i];
  }
  __syncthreads();
  FragA a, b;
  // port-kernel: note: the MFMA fragment loads and stores on 'R1' with leading dimension 24 (v_mfma_f32_16x16x16) take 16 LDS cycles; with a row pitch and leading dimension of 28 they would take 8 (conflict-free: 8). The pitch is not re-planned here: only __shared__ arrays of constant size reached as S[i][j] are [PK3017]
  pk_mfma::load_matrix_sync(a, &R1[(threadIdx.x / 32) * 16 * 24], 24);
  pk_mfma::load_matrix_sync(b, &R2[(threadIdx.x / 32) * 16 * 28], 28);
  out[threadIdx.x] = sum(a) + sum(b);
}

// Not a row-per-row tile (leading dimension 16 in rows of 256): no note.
__global__ void flat(float *out) {
  __shared__ float Fl[4][256];
  FragC c;
  pk_mfma::fill_fragment(c, 1.0f);
  pk_mfma::store_matrix_sync(Fl[threadIdx.x / 32], c, 16, pk_mfma::mem_row_major);
  __syncthreads();
  out[threadIdx.x] = Fl[threadIdx.x / 32][threadIdx.x % 32];
}
