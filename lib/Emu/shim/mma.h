//===- mma.h - nvcuda::wmma (m16n16k16) -------------------------*- C++ -*-===//
// Rules: none (emulator runtime)
//
// pkemu: nvcuda::wmma for m16n16k16 with the element-to-lane mapping observed
// on sm_90 (test/emu/data/wmma_m16n16k16_sm90_observed.txt). g = lane >> 2, t =
// lane % 4, j = i & 7:
//   A: x[i] = A[g + 8*((j>>1)&1)][2t + (j&1) + 8*(j>>2)]       (x[8..15]
//   duplicate x[0..7]) B: x[i] = B[2t + (j&1) + 8*((j>>1)&1)][g + 8*(j>>2)]
//   (x[8..15] duplicate x[0..7]) C: x[i] = C[g + 8*((i>>1)&1)][2t + (i&1) +
//   8*(i>>2)]       (8 elements)
// mma_sync is a collective over the 32 lanes of a warp; WMMA at warp width 64
// is an error.
//
//===----------------------------------------------------------------------===//
#pragma once
#include "pkemu/fp16.h"
#include "pkemu/prelude.h"

namespace nvcuda {
namespace wmma {

struct matrix_a {};
struct matrix_b {};
struct accumulator {};
struct row_major {};
struct col_major {};
enum layout_t { mem_row_major, mem_col_major };

namespace detail {
template <class Use> struct frag_elems {
  static constexpr int value = 16;
};
template <> struct frag_elems<accumulator> {
  static constexpr int value = 8;
};

// Row/column of element i of a lane's fragment.
template <class Use>
PKEMU_HD inline void coord(unsigned lane, int i, int &r, int &c) {
  int g = (int)(lane >> 2), t = (int)(lane & 3), j = i & 7;
  if constexpr (std::is_same<Use, matrix_a>::value) {
    r = g + 8 * ((j >> 1) & 1);
    c = 2 * t + (j & 1) + 8 * (j >> 2);
  } else if constexpr (std::is_same<Use, matrix_b>::value) {
    r = 2 * t + (j & 1) + 8 * ((j >> 1) & 1);
    c = g + 8 * (j >> 2);
  } else {
    r = g + 8 * ((i >> 1) & 1);
    c = 2 * t + (i & 1) + 8 * (i >> 2);
  }
}

PKEMU_HD inline void require_warp32(const char *what, const char *file,
                                    int line) {
  if (warpSize != 32) {
    char msg[160];
    std::snprintf(msg, sizeof msg,
                  "%s needs 32-lane warps, but the emulated warp width is %d "
                  "(no WMMA on 64-lane waves)",
                  what, (int)warpSize);
    ::pkemu::detail::fatal("WMMA at warp width 64", msg, file, line);
  }
}
template <class T> PKEMU_HD inline float to_f(const T &v) { return (float)v; }
} // namespace detail

template <class Use, int M, int N, int K, class T, class Layout = void>
class fragment {
  static_assert(M == 16 && N == 16 && K == 16,
                "pkemu emulates the m16n16k16 WMMA shape only");

public:
  using element_type = T;
  using storage_element_type = T;
  static constexpr int num_elements = detail::frag_elems<Use>::value;
  T x[num_elements];
};

template <class Use, int M, int N, int K, class T, class L, class V>
PKEMU_HD inline void fill_fragment(fragment<Use, M, N, K, T, L> &f,
                                   const V &v) {
  for (int i = 0; i < f.num_elements; ++i)
    f.x[i] = T(v);
}

// matrix_a / matrix_b: the layout is part of the fragment type.
template <class Use, int M, int N, int K, class T, class L, class P>
PKEMU_HD inline void load_matrix_sync(fragment<Use, M, N, K, T, L> &f,
                                      const P *p, unsigned ldm,
                                      PKEMU_LOC_PARAMS) {
  static_assert(!std::is_same<Use, accumulator>::value,
                "accumulator loads need a layout_t argument");
  detail::require_warp32("wmma::load_matrix_sync", PKEMU_LOC);
  unsigned lane = __lane_id();
  for (int i = 0; i < f.num_elements; ++i) {
    int r, c;
    detail::coord<Use>(lane, i, r, c);
    f.x[i] = std::is_same<L, col_major>::value ? p[(std::size_t)c * ldm + r]
                                               : p[(std::size_t)r * ldm + c];
  }
}
template <int M, int N, int K, class T, class P>
PKEMU_HD inline void
load_matrix_sync(fragment<accumulator, M, N, K, T, void> &f, const P *p,
                 unsigned ldm, layout_t layout, PKEMU_LOC_PARAMS) {
  detail::require_warp32("wmma::load_matrix_sync", PKEMU_LOC);
  unsigned lane = __lane_id();
  for (int i = 0; i < f.num_elements; ++i) {
    int r, c;
    detail::coord<accumulator>(lane, i, r, c);
    f.x[i] = layout == mem_col_major ? p[(std::size_t)c * ldm + r]
                                     : p[(std::size_t)r * ldm + c];
  }
}
template <int M, int N, int K, class T, class P>
PKEMU_HD inline void
store_matrix_sync(P *p, const fragment<accumulator, M, N, K, T, void> &f,
                  unsigned ldm, layout_t layout, PKEMU_LOC_PARAMS) {
  detail::require_warp32("wmma::store_matrix_sync", PKEMU_LOC);
  unsigned lane = __lane_id();
  for (int i = 0; i < f.num_elements; ++i) {
    int r, c;
    detail::coord<accumulator>(lane, i, r, c);
    (layout == mem_col_major ? p[(std::size_t)c * ldm + r]
                             : p[(std::size_t)r * ldm + c]) = P(f.x[i]);
  }
}

namespace detail {
struct MmaLane {
  float a[16], b[16], c[8];
  float d[8];
};
// Runs on the last lane to arrive: rebuild A, B, C from all 32 lanes, D = A*B +
// C.
inline void mma_complete(::pkemu::detail::CollView &v) {
  float A[16][16], B[16][16], C[16][16];
  for (unsigned l = 0; l < 32; ++l) {
    auto *p = static_cast<MmaLane *>(v.payload[l]);
    if (!p) {
      ::pkemu::detail::fatal("warp collective with inconsistent participation",
                             "wmma::mma_sync needs all 32 lanes of the warp",
                             nullptr, 0);
    }
    for (int i = 0; i < 16; ++i) {
      int r, c;
      coord<matrix_a>(l, i, r, c);
      A[r][c] = p->a[i];
      coord<matrix_b>(l, i, r, c);
      B[r][c] = p->b[i];
    }
    for (int i = 0; i < 8; ++i) {
      int r, c;
      coord<accumulator>(l, i, r, c);
      C[r][c] = p->c[i];
    }
  }
  for (unsigned l = 0; l < 32; ++l) {
    auto *p = static_cast<MmaLane *>(v.payload[l]);
    for (int i = 0; i < 8; ++i) {
      int r, c;
      coord<accumulator>(l, i, r, c);
      float s = C[r][c];
      for (int k = 0; k < 16; ++k)
        s += A[r][k] * B[k][c];
      p->d[i] = s;
    }
  }
}
} // namespace detail

template <int M, int N, int K, class TA, class LA, class TB, class LB, class TC,
          class TD>
PKEMU_HD inline void mma_sync(fragment<accumulator, M, N, K, TD, void> &d,
                              const fragment<matrix_a, M, N, K, TA, LA> &a,
                              const fragment<matrix_b, M, N, K, TB, LB> &b,
                              const fragment<accumulator, M, N, K, TC, void> &c,
                              bool satf = false, PKEMU_LOC_PARAMS) {
  (void)satf;
  detail::require_warp32("wmma::mma_sync", PKEMU_LOC);
  detail::MmaLane p;
  for (int i = 0; i < 16; ++i) {
    p.a[i] = detail::to_f(a.x[i]);
    p.b[i] = detail::to_f(b.x[i]);
  }
  for (int i = 0; i < 8; ++i)
    p.c[i] = detail::to_f(c.x[i]);
  ::pkemu::detail::coll(::pkemu::detail::coll_kind(::pkemu::detail::kCustom, 0,
                                                   ::pkemu::detail::kSyncForm),
                        0xffffffffu, 0, 0, 32, &p, &detail::mma_complete,
                        "wmma::mma_sync", PKEMU_LOC);
  for (int i = 0; i < 8; ++i)
    d.x[i] = TD(p.d[i]);
}

} // namespace wmma
} // namespace nvcuda
