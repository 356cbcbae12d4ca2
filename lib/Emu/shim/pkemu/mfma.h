//===- mfma.h - AMD MFMA builtins -------------------------------*- C++ -*-===//
// Rules: none (emulator runtime)
//
// pkemu: AMD MFMA builtins (__builtin_amdgcn_mfma_*) as 64-lane wave
// collectives, with the lane layouts of docs
// (test/emu/data/layout_v_mfma_*.csv). For shape MxMxK with KE input elements
// per lane (4 for f16/bf16, 1 for f32):
//   A[i][k]: lane = i + M*(k/KE), element k%KE       B[k][j]: lane = j +
//   M*(k/KE), element k%KE C/D register r of lane L holds [8*(r/4) + 4*(L/M) +
//   r%4][L%M]
//
//===----------------------------------------------------------------------===//
#pragma once
#include <cstdio>

#include "../../include/pkemu/runtime.h"
#include "fp16.h"

namespace pkemu {
namespace mfma {

struct Lane {
  float a[4], b[4], c[16], d[16];
};

template <int M, int K, int KE, int NR>
PKEMU_HD inline void complete(detail::CollView &v) {
  float A[32][16], B[16][32], C[32][32];
  for (int L = 0; L < 64; ++L) {
    auto *p = static_cast<Lane *>(v.payload[L]);
    if (!p)
      detail::fatal(
          "warp collective with inconsistent participation",
          "MFMA needs all 64 lanes of the wave (a lane exited or is missing)",
          nullptr, 0);
    for (int e = 0; e < KE; ++e) {
      int k = KE * (L / M) + e;
      if (k >= K)
        continue;
      A[L % M][k] = p->a[e];
      B[k][L % M] = p->b[e];
    }
    for (int r = 0; r < NR; ++r)
      C[8 * (r / 4) + 4 * (L / M) + r % 4][L % M] = p->c[r];
  }
  for (int L = 0; L < 64; ++L) {
    auto *p = static_cast<Lane *>(v.payload[L]);
    for (int r = 0; r < NR; ++r) {
      int i = 8 * (r / 4) + 4 * (L / M) + r % 4, j = L % M;
      float s = C[i][j];
      for (int k = 0; k < K; ++k)
        s += A[i][k] * B[k][j];
      p->d[r] = s;
    }
  }
}

PKEMU_HD inline void check(const char *name, int cbsz, int abid, int blgp,
                           const char *file, int line) {
  char msg[200];
  if (cbsz || abid || blgp) {
    std::snprintf(
        msg, sizeof msg,
        "%s called with cbsz=%d abid=%d blgp=%d; only 0,0,0 is emulated", name,
        cbsz, abid, blgp);
    detail::fatal("unsupported MFMA modifiers", msg, file, line);
  }
  if (::warpSize != 64) {
    std::snprintf(msg, sizeof msg,
                  "%s needs a 64-lane wave, but the emulated warp width is %d",
                  name, (int)::warpSize);
    detail::fatal("MFMA at warp width 32", msg, file, line);
  }
}

template <int M, int K, int KE, int NR, class VA, class VC, class Conv>
PKEMU_HD inline VC run(const char *name, const VA &a, const VA &b, const VC &c,
                       int cbsz, int abid, int blgp, Conv conv,
                       const char *file, int line) {
  check(name, cbsz, abid, blgp, file, line);
  Lane p;
  for (int e = 0; e < KE; ++e) {
    if constexpr (KE == 1) {
      p.a[0] = conv(a);
      p.b[0] = conv(b);
    } else {
      p.a[e] = conv(a[e]);
      p.b[e] = conv(b[e]);
    }
  }
  for (int r = 0; r < NR; ++r)
    p.c[r] = c[r];
  detail::coll(detail::coll_kind(detail::kCustom, 0, detail::kHipForm), 0, 0, 0,
               64, &p, &complete<M, K, KE, NR>, name, file, line);
  VC d = c;
  for (int r = 0; r < NR; ++r)
    d[r] = p.d[r];
  return d;
}

struct ConvF {
  template <class T> PKEMU_HD float operator()(const T &v) const {
    return (float)v;
  }
};
struct ConvBf16 {
  template <class T> PKEMU_HD float operator()(const T &v) const {
    return detail::bf2f((unsigned short)v);
  }
};

#define PKEMU_MFMA(FN, M, K, KE, NR, CONV)                                     \
  template <class VA, class VC>                                                \
  PKEMU_HD inline VC FN(const VA &a, const VA &b, const VC &c, int cbsz,       \
                        int abid, int blgp, PKEMU_LOC_PARAMS) {                \
    return run<M, K, KE, NR>("__builtin_amdgcn_" #FN, a, b, c, cbsz, abid,     \
                             blgp, CONV(), PKEMU_LOC);                         \
  }
PKEMU_MFMA(mfma_f32_16x16x16f16, 16, 16, 4, 4, ConvF)
PKEMU_MFMA(mfma_f32_32x32x8f16, 32, 8, 4, 16, ConvF)
PKEMU_MFMA(mfma_f32_16x16x16bf16_1k, 16, 16, 4, 4, ConvBf16)
PKEMU_MFMA(mfma_f32_32x32x8bf16_1k, 32, 8, 4, 16, ConvBf16)
PKEMU_MFMA(mfma_f32_16x16x4f32, 16, 4, 1, 4, ConvF)
PKEMU_MFMA(mfma_f32_32x32x2f32, 32, 2, 1, 16, ConvF)
#undef PKEMU_MFMA

} // namespace mfma
} // namespace pkemu

#define __builtin_amdgcn_mfma_f32_16x16x16f16(...)                             \
  ::pkemu::mfma::mfma_f32_16x16x16f16(__VA_ARGS__)
#define __builtin_amdgcn_mfma_f32_32x32x8f16(...)                              \
  ::pkemu::mfma::mfma_f32_32x32x8f16(__VA_ARGS__)
#define __builtin_amdgcn_mfma_f32_16x16x16bf16_1k(...)                         \
  ::pkemu::mfma::mfma_f32_16x16x16bf16_1k(__VA_ARGS__)
#define __builtin_amdgcn_mfma_f32_32x32x8bf16_1k(...)                          \
  ::pkemu::mfma::mfma_f32_32x32x8bf16_1k(__VA_ARGS__)
#define __builtin_amdgcn_mfma_f32_16x16x4f32(...)                              \
  ::pkemu::mfma::mfma_f32_16x16x4f32(__VA_ARGS__)
#define __builtin_amdgcn_mfma_f32_32x32x2f32(...)                              \
  ::pkemu::mfma::mfma_f32_32x32x2f32(__VA_ARGS__)
