//===- device.h - device-side API -------------------------------*- C++ -*-===//
// Rules: none (emulator runtime)
//
// pkemu: the CUDA/HIP device-side API for host-compiled kernels (barriers, warp
// collectives, atomics, integer and float intrinsics, math). Included by
// pkemu/prelude.h.
//
//===----------------------------------------------------------------------===//
#pragma once
#include <math.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "../../include/pkemu/runtime.h"

#define PKEMU_LOC_PARAMS                                                       \
  const char *pkemu_file = __builtin_FILE(), int pkemu_line = __builtin_LINE()
#define PKEMU_LOC pkemu_file, pkemu_line

#if defined(PKEMU_LANG_HIP)
using pkemu_lanemask_t = unsigned long long;
#define PKEMU_BALLOT_T unsigned long long
#else
using pkemu_lanemask_t = unsigned int;
#define PKEMU_BALLOT_T unsigned int
#endif

namespace pkemu {
namespace detail {
template <class T> PKEMU_HD inline std::uint64_t to_bits(const T &v) {
  static_assert(sizeof(T) <= 8 && std::is_trivially_copyable<T>::value,
                "pkemu: warp collectives support trivially copyable types of "
                "at most 8 bytes");
  std::uint64_t b = 0;
  std::memcpy(&b, &v, sizeof(T));
  return b;
}
template <class T> PKEMU_HD inline T from_bits(std::uint64_t b) {
  T v;
  std::memcpy(&v, &b, sizeof(T));
  return v;
}
template <class T>
PKEMU_HD inline T shfl(CollOp op, std::uint32_t flags, std::uint64_t mask,
                       T var, std::int64_t arg, int width, const char *name,
                       const char *file, int line) {
  if constexpr (sizeof(T) <= 8) {
    return from_bits<T>(coll_fast(coll_kind(op, sizeof(T), flags), mask,
                                  to_bits(var), arg, width, name, file, line));
  } else {
    // Wider types (uint4, a struct: cooperative groups' tile shuffles take
    // any trivially copyable type) move as 8-byte pieces, one shuffle each,
    // as the CUDA headers do with 32-bit pieces.
    static_assert(std::is_trivially_copyable<T>::value,
                  "pkemu: warp shuffles support trivially copyable types");
    unsigned char bytes[sizeof(T)];
    std::memcpy(bytes, &var, sizeof(T));
    for (std::size_t at = 0; at < sizeof(T); at += 8) {
      const std::size_t n = sizeof(T) - at < 8 ? sizeof(T) - at : 8;
      std::uint64_t b = 0;
      std::memcpy(&b, bytes + at, n);
      b = coll_fast(coll_kind(op, 8, flags), mask, b, arg, width, name, file,
                    line);
      std::memcpy(bytes + at, &b, n);
    }
    T r;
    std::memcpy(&r, bytes, sizeof(T));
    return r;
  }
}
PKEMU_HD inline std::uint64_t vote(CollOp op, std::uint32_t flags,
                                   std::uint64_t mask, int pred,
                                   const char *name, const char *file,
                                   int line) {
  return coll_fast(coll_kind(op, 4, flags), mask, pred != 0, 0, ::warpSize,
                   name, file, line);
}
#if defined(PKEMU_LANG_HIP)
constexpr std::uint32_t kLangFlag = kHipForm;
template <class M> PKEMU_HD constexpr void check_mask_type() {
  static_assert(std::is_integral<M>::value && sizeof(M) == 8,
                "The mask must be a 64-bit integer. Implicitly promoting a "
                "smaller integer is almost always an "
                "error.");
}
#else
constexpr std::uint32_t kLangFlag = 0;
#endif
} // namespace detail
} // namespace pkemu

// ---------------------------------------------------------------------------------------------
// Barriers and fences.
PKEMU_HD inline void __syncthreads(PKEMU_LOC_PARAMS) {
  ::pkemu::detail::barrier(0, 0, PKEMU_LOC);
}
PKEMU_HD inline int __syncthreads_count(int p, PKEMU_LOC_PARAMS) {
  return ::pkemu::detail::barrier(1, p, PKEMU_LOC);
}
PKEMU_HD inline int __syncthreads_and(int p, PKEMU_LOC_PARAMS) {
  return ::pkemu::detail::barrier(2, p, PKEMU_LOC);
}
PKEMU_HD inline int __syncthreads_or(int p, PKEMU_LOC_PARAMS) {
  return ::pkemu::detail::barrier(3, p, PKEMU_LOC);
}
// Fences are spin points (like atomics): a loop that polls a flag written by
// another block with a fence in it lets other threads and blocks run.
namespace pkemu {
namespace detail {
PKEMU_HD inline void fence_point() {
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
#ifndef PKEMU_PARSE
  unsigned k = rt_load(pkemu_t_atomics) + 1;
  rt_store(pkemu_t_atomics, k);
  if (__builtin_expect(k >= 256, 0))
    yield();
#endif
}
} // namespace detail
} // namespace pkemu
PKEMU_HD inline void __threadfence() { ::pkemu::detail::fence_point(); }
PKEMU_HD inline void __threadfence_block() { ::pkemu::detail::fence_point(); }
PKEMU_HD inline void __threadfence_system() { ::pkemu::detail::fence_point(); }
PKEMU_HD inline void __syncwarp(pkemu_lanemask_t mask = (pkemu_lanemask_t)~0ull,
                                PKEMU_LOC_PARAMS) {
  ::pkemu::detail::coll_fast(
      ::pkemu::detail::coll_kind(::pkemu::detail::kSyncWarp, 0,
                                 ::pkemu::detail::kSyncForm),
      mask, 0, 0, warpSize, "__syncwarp", PKEMU_LOC);
}

// ---------------------------------------------------------------------------------------------
// Warp shuffles. *_sync: participants are the lanes named in the mask.
#if defined(PKEMU_LANG_HIP)
#define PKEMU_SYNC_MASK_T class M,
#define PKEMU_SYNC_MASK M
#define PKEMU_SYNC_CHECK ::pkemu::detail::check_mask_type<M>();
#else
#define PKEMU_SYNC_MASK_T
#define PKEMU_SYNC_MASK unsigned
#define PKEMU_SYNC_CHECK
#endif

#define PKEMU_SHFL_SYNC(NAME, OP, ARGT)                                        \
  template <PKEMU_SYNC_MASK_T class T>                                         \
  PKEMU_HD inline T NAME(PKEMU_SYNC_MASK mask, T var, ARGT a,                  \
                         int width = warpSize, PKEMU_LOC_PARAMS) {             \
    PKEMU_SYNC_CHECK                                                           \
    static_assert(sizeof(T) <= 8, "pkemu: " #NAME " takes the scalar types "   \
                                  "of nvcc's overloads (at most 8 bytes)");    \
    return ::pkemu::detail::shfl(                                              \
        ::pkemu::detail::OP,                                                   \
        ::pkemu::detail::kSyncForm | ::pkemu::detail::kLangFlag,               \
        (std::uint64_t)mask, var, (std::int64_t)a, width, #NAME, PKEMU_LOC);   \
  }
// clang-format off
PKEMU_SHFL_SYNC(__shfl_sync, kShflIdx, int)
PKEMU_SHFL_SYNC(__shfl_up_sync, kShflUp, unsigned int)
PKEMU_SHFL_SYNC(__shfl_down_sync, kShflDown, unsigned int)
PKEMU_SHFL_SYNC(__shfl_xor_sync, kShflXor, int)
// clang-format on
#undef PKEMU_SHFL_SYNC

// Non-sync forms (HIP only): all live lanes of the wave.  CUDA removed them
// for sm_70 and newer (CUDA 9): nvcc -arch=sm_90 rejects them, and so does
// the emulator's CUDA mode, so that an output nvcc would reject never passes
// validation.
#if defined(PKEMU_LANG_HIP)
#define PKEMU_SHFL(NAME, OP, ARGT)                                             \
  template <class T>                                                           \
  PKEMU_HD inline T NAME(T var, ARGT a, int width = warpSize,                  \
                         PKEMU_LOC_PARAMS) {                                   \
    static_assert(sizeof(T) <= 8, "pkemu: " #NAME " takes the scalar types "   \
                                  "of HIP's overloads (at most 8 bytes)");     \
    return ::pkemu::detail::shfl(::pkemu::detail::OP,                          \
                                 ::pkemu::detail::kLangFlag, 0, var,           \
                                 (std::int64_t)a, width, #NAME, PKEMU_LOC);    \
  }
// clang-format off
PKEMU_SHFL(__shfl, kShflIdx, int)
PKEMU_SHFL(__shfl_up, kShflUp, unsigned int)
PKEMU_SHFL(__shfl_down, kShflDown, unsigned int)
PKEMU_SHFL(__shfl_xor, kShflXor, int)
// clang-format on
#undef PKEMU_SHFL
#elif defined(__clang__)
// Declared unavailable: a call is an error that names the replacement.
#define PKEMU_LEGACY(NAME)                                                     \
  "pkemu (CUDA, as nvcc for sm_70+): " #NAME                                   \
  "() is not valid on sm_70 and newer (removed in CUDA 9); use " #NAME         \
  "_sync(mask, ...)"
#define PKEMU_SHFL_REMOVED(NAME)                                               \
  template <class T, class... A>                                               \
  __attribute__((unavailable(PKEMU_LEGACY(NAME)))) T NAME(T, A...);
PKEMU_SHFL_REMOVED(__shfl)
PKEMU_SHFL_REMOVED(__shfl_up)
PKEMU_SHFL_REMOVED(__shfl_down)
PKEMU_SHFL_REMOVED(__shfl_xor)
#undef PKEMU_SHFL_REMOVED
#endif

// ---------------------------------------------------------------------------------------------
// Votes.
template <PKEMU_SYNC_MASK_T int Dummy = 0>
PKEMU_HD inline PKEMU_BALLOT_T __ballot_sync(PKEMU_SYNC_MASK mask, int pred,
                                             PKEMU_LOC_PARAMS) {
  PKEMU_SYNC_CHECK
  return (PKEMU_BALLOT_T)::pkemu::detail::vote(
      ::pkemu::detail::kBallot,
      ::pkemu::detail::kSyncForm | ::pkemu::detail::kLangFlag,
      (std::uint64_t)mask, pred, "__ballot_sync", PKEMU_LOC);
}
template <PKEMU_SYNC_MASK_T int Dummy = 0>
PKEMU_HD inline int __any_sync(PKEMU_SYNC_MASK mask, int pred,
                               PKEMU_LOC_PARAMS) {
  PKEMU_SYNC_CHECK
  return (int)::pkemu::detail::vote(
      ::pkemu::detail::kAny,
      ::pkemu::detail::kSyncForm | ::pkemu::detail::kLangFlag,
      (std::uint64_t)mask, pred, "__any_sync", PKEMU_LOC);
}
template <PKEMU_SYNC_MASK_T int Dummy = 0>
PKEMU_HD inline int __all_sync(PKEMU_SYNC_MASK mask, int pred,
                               PKEMU_LOC_PARAMS) {
  PKEMU_SYNC_CHECK
  return (int)::pkemu::detail::vote(
      ::pkemu::detail::kAll,
      ::pkemu::detail::kSyncForm | ::pkemu::detail::kLangFlag,
      (std::uint64_t)mask, pred, "__all_sync", PKEMU_LOC);
}
template <PKEMU_SYNC_MASK_T class T>
PKEMU_HD inline PKEMU_BALLOT_T __match_any_sync(PKEMU_SYNC_MASK mask, T value,
                                                PKEMU_LOC_PARAMS) {
  PKEMU_SYNC_CHECK
  return (PKEMU_BALLOT_T)::pkemu::detail::coll(
      ::pkemu::detail::coll_kind(::pkemu::detail::kMatchAny, sizeof(T),
                                 ::pkemu::detail::kSyncForm),
      (std::uint64_t)mask, ::pkemu::detail::to_bits(value), 0, warpSize,
      nullptr, nullptr, "__match_any_sync", PKEMU_LOC);
}
template <PKEMU_SYNC_MASK_T class T>
PKEMU_HD inline PKEMU_BALLOT_T __match_all_sync(PKEMU_SYNC_MASK mask, T value,
                                                int *pred, PKEMU_LOC_PARAMS) {
  PKEMU_SYNC_CHECK
  std::uint64_t r = ::pkemu::detail::coll(
      ::pkemu::detail::coll_kind(::pkemu::detail::kMatchAll, sizeof(T),
                                 ::pkemu::detail::kSyncForm),
      (std::uint64_t)mask, ::pkemu::detail::to_bits(value), 0, warpSize,
      nullptr, nullptr, "__match_all_sync", PKEMU_LOC);
  if (pred)
    *pred = r != 0;
  return (PKEMU_BALLOT_T)r;
}
#if defined(PKEMU_LANG_HIP)
// HIP's votes without a mask run on the lanes the EXEC mask holds: those that
// reach this call together.  Lanes in the other branch of an if, at a vote of
// their own, take part in that one (site form), not in this one.
PKEMU_HD inline PKEMU_BALLOT_T __ballot(int pred, PKEMU_LOC_PARAMS) {
  return (PKEMU_BALLOT_T)::pkemu::detail::vote(
      ::pkemu::detail::kBallot,
      ::pkemu::detail::kLangFlag | ::pkemu::detail::kSiteForm, 0, pred,
      "__ballot", PKEMU_LOC);
}
PKEMU_HD inline int __any(int pred, PKEMU_LOC_PARAMS) {
  return (int)::pkemu::detail::vote(
      ::pkemu::detail::kAny,
      ::pkemu::detail::kLangFlag | ::pkemu::detail::kSiteForm, 0, pred,
      "__any", PKEMU_LOC);
}
PKEMU_HD inline int __all(int pred, PKEMU_LOC_PARAMS) {
  return (int)::pkemu::detail::vote(
      ::pkemu::detail::kAll,
      ::pkemu::detail::kLangFlag | ::pkemu::detail::kSiteForm, 0, pred,
      "__all", PKEMU_LOC);
}
#elif defined(__clang__)
__attribute__((unavailable(PKEMU_LEGACY(__ballot)))) unsigned __ballot(int);
__attribute__((unavailable(PKEMU_LEGACY(__any)))) int __any(int);
__attribute__((unavailable(PKEMU_LEGACY(__all)))) int __all(int);
#undef PKEMU_LEGACY
#endif
// The lanes that reach this call together, as on a GPU: lanes that exited
// (`if (i >= n) return;`) are not among them, nor lanes at another call site.
// A site-form ballot, like cooperative_groups::coalesced_threads().
PKEMU_HD inline PKEMU_BALLOT_T __activemask(PKEMU_LOC_PARAMS) {
  return (PKEMU_BALLOT_T)::pkemu::detail::coll(
      ::pkemu::detail::coll_kind(::pkemu::detail::kBallot, 4,
                                 ::pkemu::detail::kSiteForm),
      0, 1, 0, ::warpSize, nullptr, nullptr, "__activemask", PKEMU_LOC);
}

// Lane queries.
PKEMU_HD inline unsigned int __lane_id() {
#ifdef PKEMU_PARSE
  return 0;
#else
  return ::pkemu::detail::pkemu_t_lane;
#endif
}
PKEMU_HD inline pkemu_lanemask_t __lanemask_eq() {
  return (pkemu_lanemask_t)(1ull << __lane_id());
}
PKEMU_HD inline pkemu_lanemask_t __lanemask_lt() {
  return (pkemu_lanemask_t)((1ull << __lane_id()) - 1);
}
PKEMU_HD inline pkemu_lanemask_t __lanemask_le() {
  return (pkemu_lanemask_t)((2ull << __lane_id()) - 1);
}
PKEMU_HD inline pkemu_lanemask_t __lanemask_gt() {
  unsigned l = __lane_id();
  std::uint64_t all = warpSize == 64 ? ~0ull : 0xffffffffull;
  return (pkemu_lanemask_t)(all & ~((2ull << l) - 1));
}
PKEMU_HD inline pkemu_lanemask_t __lanemask_ge() {
  unsigned l = __lane_id();
  std::uint64_t all = warpSize == 64 ? ~0ull : 0xffffffffull;
  return (pkemu_lanemask_t)(all & ~((1ull << l) - 1));
}

// ---------------------------------------------------------------------------------------------
// Atomics (global and shared memory). Relaxed, like GPU atomics; never reported
// as races.
// Always inlined (with note_atomic), so that a report names the atomic's line
// in the kernel.
#define PKEMU_ATOMIC_INLINE inline __attribute__((always_inline))
#define PKEMU_AT(p)                                                            \
  ::pkemu::detail::note_atomic((const void *)(p), sizeof(*(p)))
// atomicExch: its new value does not depend on the old one, so an exchange
// initialises shared memory (`atomicExch(&count, 0)`) and is not an
// uninitialised read (the old value it returns is the program's concern).
#define PKEMU_AT_EXCH(p)                                                       \
  ::pkemu::detail::note_atomic((const void *)(p), sizeof(*(p)), true)
#define PKEMU_ATOMIC_INT(T)                                                    \
  PKEMU_HD PKEMU_ATOMIC_INLINE T atomicAdd(T *p, T v) {                        \
    PKEMU_AT(p);                                                               \
    return __atomic_fetch_add(p, v, __ATOMIC_RELAXED);                         \
  }                                                                            \
  PKEMU_HD PKEMU_ATOMIC_INLINE T atomicSub(T *p, T v) {                        \
    PKEMU_AT(p);                                                               \
    return __atomic_fetch_sub(p, v, __ATOMIC_RELAXED);                         \
  }                                                                            \
  PKEMU_HD PKEMU_ATOMIC_INLINE T atomicAnd(T *p, T v) {                        \
    PKEMU_AT(p);                                                               \
    return __atomic_fetch_and(p, v, __ATOMIC_RELAXED);                         \
  }                                                                            \
  PKEMU_HD PKEMU_ATOMIC_INLINE T atomicOr(T *p, T v) {                         \
    PKEMU_AT(p);                                                               \
    return __atomic_fetch_or(p, v, __ATOMIC_RELAXED);                          \
  }                                                                            \
  PKEMU_HD PKEMU_ATOMIC_INLINE T atomicXor(T *p, T v) {                        \
    PKEMU_AT(p);                                                               \
    return __atomic_fetch_xor(p, v, __ATOMIC_RELAXED);                         \
  }                                                                            \
  PKEMU_HD PKEMU_ATOMIC_INLINE T atomicExch(T *p, T v) {                       \
    PKEMU_AT_EXCH(p);                                                          \
    return __atomic_exchange_n(p, v, __ATOMIC_RELAXED);                        \
  }                                                                            \
  PKEMU_HD PKEMU_ATOMIC_INLINE T atomicCAS(T *p, T c, T v) {                   \
    PKEMU_AT(p);                                                               \
    __atomic_compare_exchange_n(p, &c, v, false, __ATOMIC_RELAXED,             \
                                __ATOMIC_RELAXED);                             \
    return c;                                                                  \
  }                                                                            \
  PKEMU_HD PKEMU_ATOMIC_INLINE T atomicMax(T *p, T v) {                        \
    PKEMU_AT(p);                                                               \
    T o = __atomic_load_n(p, __ATOMIC_RELAXED);                                \
    while (o < v && !__atomic_compare_exchange_n(                              \
                        p, &o, v, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) { \
    }                                                                          \
    return o;                                                                  \
  }                                                                            \
  PKEMU_HD PKEMU_ATOMIC_INLINE T atomicMin(T *p, T v) {                        \
    PKEMU_AT(p);                                                               \
    T o = __atomic_load_n(p, __ATOMIC_RELAXED);                                \
    while (o > v && !__atomic_compare_exchange_n(                              \
                        p, &o, v, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) { \
    }                                                                          \
    return o;                                                                  \
  }
// clang-format off
PKEMU_ATOMIC_INT(int)
PKEMU_ATOMIC_INT(unsigned int)
PKEMU_ATOMIC_INT(long long)
PKEMU_ATOMIC_INT(unsigned long long)
// clang-format on
#undef PKEMU_ATOMIC_INT

namespace pkemu {
namespace detail {
template <class T, class U, class F>
PKEMU_HD PKEMU_ATOMIC_INLINE T atomic_cas_loop(T *p, F f) {
  static_assert(sizeof(T) == sizeof(U), "size mismatch");
  U *q = reinterpret_cast<U *>(p);
  U o = __atomic_load_n(q, __ATOMIC_RELAXED);
  for (;;) {
    T ov;
    std::memcpy(&ov, &o, sizeof(T));
    T nv = f(ov);
    U n;
    std::memcpy(&n, &nv, sizeof(T));
    if (__atomic_compare_exchange_n(q, &o, n, true, __ATOMIC_RELAXED,
                                    __ATOMIC_RELAXED))
      return ov;
  }
}
} // namespace detail
} // namespace pkemu

#define PKEMU_ATOMIC_FP(T, U)                                                  \
  PKEMU_HD PKEMU_ATOMIC_INLINE T atomicAdd(T *p, T v) {                        \
    PKEMU_AT(p);                                                               \
    return ::pkemu::detail::atomic_cas_loop<T, U>(p,                           \
                                                  [v](T o) { return o + v; }); \
  }                                                                            \
  PKEMU_HD PKEMU_ATOMIC_INLINE T atomicSub(T *p, T v) {                        \
    PKEMU_AT(p);                                                               \
    return ::pkemu::detail::atomic_cas_loop<T, U>(p,                           \
                                                  [v](T o) { return o - v; }); \
  }                                                                            \
  PKEMU_HD PKEMU_ATOMIC_INLINE T atomicExch(T *p, T v) {                       \
    PKEMU_AT_EXCH(p);                                                          \
    return ::pkemu::detail::atomic_cas_loop<T, U>(p, [v](T) { return v; });    \
  }                                                                            \
  PKEMU_HD PKEMU_ATOMIC_INLINE T atomicMax(T *p, T v) {                        \
    PKEMU_AT(p);                                                               \
    return ::pkemu::detail::atomic_cas_loop<T, U>(                             \
        p, [v](T o) { return o < v ? v : o; });                                \
  }                                                                            \
  PKEMU_HD PKEMU_ATOMIC_INLINE T atomicMin(T *p, T v) {                        \
    PKEMU_AT(p);                                                               \
    return ::pkemu::detail::atomic_cas_loop<T, U>(                             \
        p, [v](T o) { return o > v ? v : o; });                                \
  }
// clang-format off
PKEMU_ATOMIC_FP(float, std::uint32_t)
PKEMU_ATOMIC_FP(double, std::uint64_t)
// clang-format on
#undef PKEMU_ATOMIC_FP

PKEMU_HD PKEMU_ATOMIC_INLINE unsigned int atomicInc(unsigned int *p,
                                                    unsigned int v) {
  PKEMU_AT(p);
  return ::pkemu::detail::atomic_cas_loop<unsigned, unsigned>(
      p, [v](unsigned o) { return o >= v ? 0u : o + 1; });
}
PKEMU_HD PKEMU_ATOMIC_INLINE unsigned int atomicDec(unsigned int *p,
                                                    unsigned int v) {
  PKEMU_AT(p);
  return ::pkemu::detail::atomic_cas_loop<unsigned, unsigned>(
      p, [v](unsigned o) { return (o == 0 || o > v) ? v : o - 1; });
}
PKEMU_HD PKEMU_ATOMIC_INLINE unsigned short
atomicCAS(unsigned short *p, unsigned short c, unsigned short v) {
  PKEMU_AT(p);
  __atomic_compare_exchange_n(p, &c, v, false, __ATOMIC_RELAXED,
                              __ATOMIC_RELAXED);
  return c;
}
// Scoped variants.
#define PKEMU_SCOPED(NAME)                                                     \
  template <class... A>                                                        \
  PKEMU_HD PKEMU_ATOMIC_INLINE auto NAME##_block(A... a)->decltype(NAME(       \
      a...)) {                                                                 \
    return NAME(a...);                                                         \
  }                                                                            \
  template <class... A>                                                        \
  PKEMU_HD PKEMU_ATOMIC_INLINE auto NAME##_system(A... a)->decltype(NAME(      \
      a...)) {                                                                 \
    return NAME(a...);                                                         \
  }
// clang-format off
PKEMU_SCOPED(atomicAdd) PKEMU_SCOPED(atomicSub) PKEMU_SCOPED(atomicExch) PKEMU_SCOPED(atomicMin)
PKEMU_SCOPED(atomicMax) PKEMU_SCOPED(atomicCAS) PKEMU_SCOPED(atomicAnd) PKEMU_SCOPED(atomicOr)
PKEMU_SCOPED(atomicXor) PKEMU_SCOPED(atomicInc) PKEMU_SCOPED(atomicDec)
// clang-format on
#undef PKEMU_SCOPED
#if defined(PKEMU_LANG_HIP)
                template <class T>
                PKEMU_HD inline T unsafeAtomicAdd(T *p, T v) {
  return atomicAdd(p, v);
}
template <class T> PKEMU_HD inline T safeAtomicAdd(T *p, T v) {
  return atomicAdd(p, v);
}
#endif

// ---------------------------------------------------------------------------------------------
// Integer intrinsics.
PKEMU_HD inline int __popc(unsigned int x) { return __builtin_popcount(x); }
PKEMU_HD inline int __popcll(unsigned long long x) {
  return __builtin_popcountll(x);
}
PKEMU_HD inline int __ffs(int x) { return __builtin_ffs(x); }
PKEMU_HD inline int __ffsll(long long x) { return __builtin_ffsll(x); }
PKEMU_HD inline int __clz(int x) { return x ? __builtin_clz((unsigned)x) : 32; }
PKEMU_HD inline int __clzll(long long x) {
  return x ? __builtin_clzll((unsigned long long)x) : 64;
}
PKEMU_HD inline unsigned int __brev(unsigned int x) {
  return __builtin_bitreverse32(x);
}
PKEMU_HD inline unsigned long long __brevll(unsigned long long x) {
  return __builtin_bitreverse64(x);
}
PKEMU_HD inline unsigned int __funnelshift_l(unsigned lo, unsigned hi,
                                             unsigned s) {
  std::uint64_t v = ((std::uint64_t)hi << 32) | lo;
  return (unsigned)((v << (s & 31)) >> 32);
}
PKEMU_HD inline unsigned int __funnelshift_lc(unsigned lo, unsigned hi,
                                              unsigned s) {
  std::uint64_t v = ((std::uint64_t)hi << 32) | lo;
  return (unsigned)((v << (s > 32 ? 32 : s)) >> 32);
}
PKEMU_HD inline unsigned int __funnelshift_r(unsigned lo, unsigned hi,
                                             unsigned s) {
  std::uint64_t v = ((std::uint64_t)hi << 32) | lo;
  return (unsigned)(v >> (s & 31));
}
PKEMU_HD inline unsigned int __funnelshift_rc(unsigned lo, unsigned hi,
                                              unsigned s) {
  std::uint64_t v = ((std::uint64_t)hi << 32) | lo;
  return (unsigned)(v >> (s > 32 ? 32 : s));
}
PKEMU_HD inline unsigned int __byte_perm(unsigned x, unsigned y, unsigned s) {
  std::uint64_t v = ((std::uint64_t)y << 32) | x;
  unsigned r = 0;
  for (int i = 0; i < 4; ++i)
    r |= (unsigned)((v >> (((s >> (4 * i)) & 7) * 8)) & 0xff) << (8 * i);
  return r;
}
PKEMU_HD inline int __mul24(int a, int b) {
  return (int)((std::int64_t)((a << 8) >> 8) * ((b << 8) >> 8));
}
PKEMU_HD inline unsigned __umul24(unsigned a, unsigned b) {
  return (a & 0xffffff) * (b & 0xffffff);
}
PKEMU_HD inline int __mulhi(int a, int b) {
  return (int)(((std::int64_t)a * b) >> 32);
}
PKEMU_HD inline unsigned __umulhi(unsigned a, unsigned b) {
  return (unsigned)(((std::uint64_t)a * b) >> 32);
}
PKEMU_HD inline long long __mul64hi(long long a, long long b) {
  return (long long)(((__int128)a * b) >> 64);
}
PKEMU_HD inline unsigned long long __umul64hi(unsigned long long a,
                                              unsigned long long b) {
  return (unsigned long long)(((unsigned __int128)a * b) >> 64);
}
PKEMU_HD inline unsigned __sad(int a, int b, unsigned c) {
  return (unsigned)(a > b ? a - b : b - a) + c;
}
PKEMU_HD inline unsigned __usad(unsigned a, unsigned b, unsigned c) {
  return (a > b ? a - b : b - a) + c;
}
PKEMU_HD inline int __hadd(int a, int b) {
  return (int)(((long long)a + b) >> 1);
}
PKEMU_HD inline int __rhadd(int a, int b) {
  return (int)(((long long)a + b + 1) >> 1);
}
PKEMU_HD inline unsigned __uhadd(unsigned a, unsigned b) {
  return (unsigned)(((unsigned long long)a + b) >> 1);
}
PKEMU_HD inline unsigned __urhadd(unsigned a, unsigned b) {
  return (unsigned)(((unsigned long long)a + b + 1) >> 1);
}

// min/max as in CUDA's math_functions (non-template, so they beat std::min
// under `using namespace std`).
#define PKEMU_MINMAX(T)                                                        \
  PKEMU_HD inline T min(T a, T b) { return b < a ? b : a; }                    \
  PKEMU_HD inline T max(T a, T b) { return a < b ? b : a; }
// clang-format off
PKEMU_MINMAX(int) PKEMU_MINMAX(unsigned int) PKEMU_MINMAX(long) PKEMU_MINMAX(unsigned long)
PKEMU_MINMAX(long long) PKEMU_MINMAX(unsigned long long)
// clang-format on
#undef PKEMU_MINMAX
        PKEMU_HD inline float min(float a, float b) {
  return fminf(a, b);
}
PKEMU_HD inline float max(float a, float b) { return fmaxf(a, b); }
#if defined(PKEMU_LANG_HIP)
// HIP's device math (clang's __clang_hip_math.h) has the templates too; the
// port of CUDA's umin is min<unsigned int> (PK1032).
template <class T> PKEMU_HD inline T min(T a, T b) { return a < b ? a : b; }
template <class T> PKEMU_HD inline T max(T a, T b) { return a > b ? a : b; }
#endif
PKEMU_HD inline double min(double a, double b) { return fmin(a, b); }
PKEMU_HD inline double max(double a, double b) { return fmax(a, b); }
PKEMU_HD inline double min(float a, double b) { return fmin(a, b); }
PKEMU_HD inline double max(float a, double b) { return fmax(a, b); }
PKEMU_HD inline double min(double a, float b) { return fmin(a, b); }
PKEMU_HD inline double max(double a, float b) { return fmax(a, b); }
PKEMU_HD inline unsigned min(int a, unsigned b) { return min((unsigned)a, b); }
PKEMU_HD inline unsigned min(unsigned a, int b) { return min(a, (unsigned)b); }
PKEMU_HD inline unsigned max(int a, unsigned b) { return max((unsigned)a, b); }
PKEMU_HD inline unsigned max(unsigned a, int b) { return max(a, (unsigned)b); }
// The CUDA-only integer min/max names are templates with no parameter to
// deduce: a program's own host function of the same name and signature (a
// `static uint umin(uint, uint)` in a .cpp unit, which nvcc compiles as
// plain C++ where CUDA declares none) is a different function that overload
// resolution prefers, instead of a redefinition.
template <class PKEMU_D = void>
PKEMU_HD inline unsigned umin(unsigned a, unsigned b) {
  return a < b ? a : b;
}
template <class PKEMU_D = void>
PKEMU_HD inline unsigned umax(unsigned a, unsigned b) {
  return a < b ? b : a;
}
template <class PKEMU_D = void>
PKEMU_HD inline long long llmin(long long a, long long b) {
  return a < b ? a : b;
}
template <class PKEMU_D = void>
PKEMU_HD inline long long llmax(long long a, long long b) {
  return a < b ? b : a;
}
template <class PKEMU_D = void>
PKEMU_HD inline unsigned long long ullmin(unsigned long long a,
                                          unsigned long long b) {
  return a < b ? a : b;
}
template <class PKEMU_D = void>
PKEMU_HD inline unsigned long long ullmax(unsigned long long a,
                                          unsigned long long b) {
  return a < b ? b : a;
}

// ---------------------------------------------------------------------------------------------
// Float intrinsics and the CUDA-only parts of the math library (the rest is
// <math.h>).
// __expf, __logf, ... are also declared by glibc (as host functions): defined
// here without the host/device attributes so that parse mode (-x cuda) accepts
// the redeclaration.
// CUDA declares these __host__ __device__; HIP's headers declare them for the
// device only (amd_math_functions.h), so when a HIP source is parsed they are
// device functions: a HIP port that calls them from host code is refused as it
// is by hipcc, not validated on the emulator's permissive host versions.
#if defined(PKEMU_PARSE) && defined(PKEMU_LANG_HIP)
#pragma clang force_cuda_host_device end
#define PKEMU_CUDA_MATH __device__
#else
#define PKEMU_CUDA_MATH PKEMU_HD
#endif
PKEMU_CUDA_MATH inline float rsqrtf(float x) { return 1.0f / sqrtf(x); }
PKEMU_CUDA_MATH inline double rsqrt(double x) { return 1.0 / sqrt(x); }
PKEMU_CUDA_MATH inline float rcbrtf(float x) { return 1.0f / cbrtf(x); }
PKEMU_CUDA_MATH inline double rcbrt(double x) { return 1.0 / cbrt(x); }
PKEMU_CUDA_MATH inline float sinpif(float x) { return sinf((float)M_PI * x); }
PKEMU_CUDA_MATH inline float cospif(float x) { return cosf((float)M_PI * x); }
PKEMU_CUDA_MATH inline double sinpi(double x) { return sin(M_PI * x); }
PKEMU_CUDA_MATH inline double cospi(double x) { return cos(M_PI * x); }
PKEMU_CUDA_MATH inline void sincospif(float x, float *s, float *c) {
  *s = sinpif(x);
  *c = cospif(x);
}
PKEMU_CUDA_MATH inline void sincospi(double x, double *s, double *c) {
  *s = sinpi(x);
  *c = cospi(x);
}
PKEMU_CUDA_MATH inline float normcdff(float x) {
  return 0.5f * erfcf(-x * (float)M_SQRT1_2);
}
PKEMU_CUDA_MATH inline double normcdf(double x) {
  return 0.5 * erfc(-x * M_SQRT1_2);
}
PKEMU_CUDA_MATH inline double erfinv(double y) {
  if (y <= -1)
    return -HUGE_VAL;
  if (y >= 1)
    return HUGE_VAL;
  double w = -log((1.0 - y) * (1.0 + y)), x;
  if (w < 6.25) {
    w -= 3.125;
    x = -3.6444120640178196996e-21;
    x = -1.685059138182016589e-19 + x * w;
    x = 1.2858480715256400167e-18 + x * w;
    x = 1.115787767802518096e-17 + x * w;
    x = -1.333171662854620906e-16 + x * w;
    x = 2.0972767875968561637e-17 + x * w;
    x = 6.6376381343583238325e-15 + x * w;
    x = -4.0545662729752068639e-14 + x * w;
    x = -8.1519341976054721522e-14 + x * w;
    x = 2.6335093153082322977e-12 + x * w;
    x = -1.2975133253453532498e-11 + x * w;
    x = -5.4154120542946279317e-11 + x * w;
    x = 1.051212273321532285e-09 + x * w;
    x = -4.1126339803469836976e-09 + x * w;
    x = -2.9070369957882005086e-08 + x * w;
    x = 4.2347877827932403518e-07 + x * w;
    x = -1.3654692000834678645e-06 + x * w;
    x = -1.3882523362786468719e-05 + x * w;
    x = 0.0001867342080340571352 + x * w;
    x = -0.00074070253416626697512 + x * w;
    x = -0.0060336708714301490533 + x * w;
    x = 0.24015818242558961693 + x * w;
    x = 1.6536545626831027356 + x * w;
  } else if (w < 16.0) {
    w = sqrt(w) - 3.25;
    x = 2.2137376921775787049e-09;
    x = 9.0756561938885390979e-08 + x * w;
    x = -2.7517406297064545428e-07 + x * w;
    x = 1.8239629214389227755e-08 + x * w;
    x = 1.5027403968909827627e-06 + x * w;
    x = -4.013867526981545969e-06 + x * w;
    x = 2.9234449089955446044e-06 + x * w;
    x = 1.2475304481671778723e-05 + x * w;
    x = -4.7318229009055733981e-05 + x * w;
    x = 6.8284851459573175448e-05 + x * w;
    x = 2.4031110387097893999e-05 + x * w;
    x = -0.0003550375203628474796 + x * w;
    x = 0.00095328937973738049703 + x * w;
    x = -0.0016882755560235047313 + x * w;
    x = 0.0024914420961078508066 + x * w;
    x = -0.0037512085075692412107 + x * w;
    x = 0.005370914553590063617 + x * w;
    x = 1.0052589676941592334 + x * w;
    x = 3.0838856104922207635 + x * w;
  } else {
    w = sqrt(w) - 5.0;
    x = -2.7109920616438573243e-11;
    x = -2.5556418169965252055e-10 + x * w;
    x = 1.5076572693500548083e-09 + x * w;
    x = -3.7894654401267369937e-09 + x * w;
    x = 7.6157012080783393804e-09 + x * w;
    x = -1.4960026627149240478e-08 + x * w;
    x = 2.9147953450901080826e-08 + x * w;
    x = -6.7711997758452339498e-08 + x * w;
    x = 2.2900482228026654717e-07 + x * w;
    x = -9.9298272942317002539e-07 + x * w;
    x = 4.5260625972231537039e-06 + x * w;
    x = -1.9681778105531670567e-05 + x * w;
    x = 7.5995277030017761139e-05 + x * w;
    x = -0.00021503011930044477347 + x * w;
    x = -0.00013871931833623122026 + x * w;
    x = 1.0103004648645343977 + x * w;
    x = 4.8499064014085844221 + x * w;
  }
  return x * y;
}
PKEMU_CUDA_MATH inline float erfinvf(float y) {
  return (float)erfinv((double)y);
}
PKEMU_CUDA_MATH inline double erfcinv(double y) { return erfinv(1.0 - y); }
PKEMU_CUDA_MATH inline float erfcinvf(float y) {
  return (float)erfcinv((double)y);
}
PKEMU_CUDA_MATH inline double normcdfinv(double p) {
  return -M_SQRT2 * erfcinv(2.0 * p);
}
PKEMU_CUDA_MATH inline float normcdfinvf(float p) {
  return (float)normcdfinv((double)p);
}
#if defined(PKEMU_PARSE) && defined(PKEMU_LANG_HIP)
#pragma clang force_cuda_host_device begin
#endif
#undef PKEMU_CUDA_MATH
PKEMU_HD inline float __saturatef(float x) {
  return x != x ? 0.0f : (x < 0.0f ? 0.0f : (x > 1.0f ? 1.0f : x));
}
PKEMU_HD inline float __fdividef(float a, float b) { return a / b; }
PKEMU_HD inline float fdividef(float a, float b) { return a / b; }
inline float __expf(float x) { return expf(x); }
inline float __exp10f(float x) { return powf(10.0f, x); }
inline float __logf(float x) { return logf(x); }
inline float __log2f(float x) { return log2f(x); }
inline float __log10f(float x) { return log10f(x); }
inline float __sinf(float x) { return sinf(x); }
inline float __cosf(float x) { return cosf(x); }
inline float __tanf(float x) { return tanf(x); }
inline float __powf(float a, float b) { return powf(a, b); }
inline void __sincosf(float x, float *s, float *c) {
  *s = sinf(x);
  *c = cosf(x);
}
#define PKEMU_ROUNDED_F(NAME, EXPR)                                            \
  PKEMU_HD inline float NAME##_rn(float a, float b) { return EXPR; }           \
  PKEMU_HD inline float NAME##_rz(float a, float b) { return EXPR; }           \
  PKEMU_HD inline float NAME##_rd(float a, float b) { return EXPR; }           \
  PKEMU_HD inline float NAME##_ru(float a, float b) { return EXPR; }
// clang-format off
PKEMU_ROUNDED_F(__fadd, a + b) PKEMU_ROUNDED_F(__fsub, a - b) PKEMU_ROUNDED_F(__fmul, a * b)
PKEMU_ROUNDED_F(__fdiv, a / b)
// clang-format on
#undef PKEMU_ROUNDED_F
#define PKEMU_ROUNDED_D(NAME, EXPR)                                            \
  PKEMU_HD inline double NAME##_rn(double a, double b) { return EXPR; }        \
  PKEMU_HD inline double NAME##_rz(double a, double b) { return EXPR; }        \
  PKEMU_HD inline double NAME##_rd(double a, double b) { return EXPR; }        \
  PKEMU_HD inline double NAME##_ru(double a, double b) { return EXPR; }
    // clang-format off
PKEMU_ROUNDED_D(__dadd, a + b) PKEMU_ROUNDED_D(__dsub, a - b) PKEMU_ROUNDED_D(__dmul, a * b)
PKEMU_ROUNDED_D(__ddiv, a / b)
// clang-format on
#undef PKEMU_ROUNDED_D
            PKEMU_HD inline float __fmaf_rn(float a, float b, float c) {
  return fmaf(a, b, c);
}
PKEMU_HD inline float __fmaf_rz(float a, float b, float c) {
  return fmaf(a, b, c);
}
PKEMU_HD inline float __fmaf_rd(float a, float b, float c) {
  return fmaf(a, b, c);
}
PKEMU_HD inline float __fmaf_ru(float a, float b, float c) {
  return fmaf(a, b, c);
}
PKEMU_HD inline double __fma_rn(double a, double b, double c) {
  return fma(a, b, c);
}
PKEMU_HD inline float __frcp_rn(float x) { return 1.0f / x; }
PKEMU_HD inline float __frcp_rz(float x) { return 1.0f / x; }
PKEMU_HD inline float __frcp_rd(float x) { return 1.0f / x; }
PKEMU_HD inline float __frcp_ru(float x) { return 1.0f / x; }
PKEMU_HD inline float __fsqrt_rn(float x) { return sqrtf(x); }
PKEMU_HD inline float __fsqrt_rz(float x) { return sqrtf(x); }
PKEMU_HD inline float __fsqrt_rd(float x) { return sqrtf(x); }
PKEMU_HD inline float __fsqrt_ru(float x) { return sqrtf(x); }
PKEMU_HD inline float __frsqrt_rn(float x) { return 1.0f / sqrtf(x); }
PKEMU_HD inline double __drcp_rn(double x) { return 1.0 / x; }
PKEMU_HD inline double __dsqrt_rn(double x) { return sqrt(x); }

// Conversions.
PKEMU_HD inline int __float2int_rn(float x) { return (int)nearbyintf(x); }
PKEMU_HD inline int __float2int_rz(float x) { return (int)x; }
PKEMU_HD inline int __float2int_rd(float x) { return (int)floorf(x); }
PKEMU_HD inline int __float2int_ru(float x) { return (int)ceilf(x); }
PKEMU_HD inline unsigned __float2uint_rn(float x) {
  return (unsigned)nearbyintf(x);
}
PKEMU_HD inline unsigned __float2uint_rz(float x) { return (unsigned)x; }
PKEMU_HD inline unsigned __float2uint_rd(float x) {
  return (unsigned)floorf(x);
}
PKEMU_HD inline unsigned __float2uint_ru(float x) { return (unsigned)ceilf(x); }
PKEMU_HD inline long long __float2ll_rn(float x) {
  return (long long)nearbyintf(x);
}
PKEMU_HD inline long long __float2ll_rz(float x) { return (long long)x; }
PKEMU_HD inline long long __float2ll_rd(float x) {
  return (long long)floorf(x);
}
PKEMU_HD inline long long __float2ll_ru(float x) { return (long long)ceilf(x); }
PKEMU_HD inline unsigned long long __float2ull_rn(float x) {
  return (unsigned long long)nearbyintf(x);
}
PKEMU_HD inline unsigned long long __float2ull_rz(float x) {
  return (unsigned long long)x;
}
PKEMU_HD inline int __double2int_rn(double x) { return (int)nearbyint(x); }
PKEMU_HD inline int __double2int_rz(double x) { return (int)x; }
PKEMU_HD inline int __double2int_rd(double x) { return (int)floor(x); }
PKEMU_HD inline int __double2int_ru(double x) { return (int)ceil(x); }
PKEMU_HD inline unsigned __double2uint_rn(double x) {
  return (unsigned)nearbyint(x);
}
PKEMU_HD inline unsigned __double2uint_rz(double x) { return (unsigned)x; }
PKEMU_HD inline long long __double2ll_rn(double x) {
  return (long long)nearbyint(x);
}
PKEMU_HD inline long long __double2ll_rz(double x) { return (long long)x; }
PKEMU_HD inline unsigned long long __double2ull_rn(double x) {
  return (unsigned long long)nearbyint(x);
}
PKEMU_HD inline unsigned long long __double2ull_rz(double x) {
  return (unsigned long long)x;
}
PKEMU_HD inline float __double2float_rn(double x) { return (float)x; }
PKEMU_HD inline float __double2float_rz(double x) { return (float)x; }
PKEMU_HD inline float __double2float_rd(double x) { return (float)x; }
PKEMU_HD inline float __double2float_ru(double x) { return (float)x; }
PKEMU_HD inline float __int2float_rn(int x) { return (float)x; }
PKEMU_HD inline float __int2float_rz(int x) { return (float)x; }
PKEMU_HD inline float __uint2float_rn(unsigned x) { return (float)x; }
PKEMU_HD inline float __ll2float_rn(long long x) { return (float)x; }
PKEMU_HD inline float __ull2float_rn(unsigned long long x) { return (float)x; }
PKEMU_HD inline double __int2double_rn(int x) { return (double)x; }
PKEMU_HD inline double __uint2double_rn(unsigned x) { return (double)x; }
PKEMU_HD inline double __ll2double_rn(long long x) { return (double)x; }
PKEMU_HD inline double __ull2double_rn(unsigned long long x) {
  return (double)x;
}
PKEMU_HD inline int __float_as_int(float x) {
  int r;
  std::memcpy(&r, &x, 4);
  return r;
}
PKEMU_HD inline unsigned __float_as_uint(float x) {
  unsigned r;
  std::memcpy(&r, &x, 4);
  return r;
}
PKEMU_HD inline float __int_as_float(int x) {
  float r;
  std::memcpy(&r, &x, 4);
  return r;
}
PKEMU_HD inline float __uint_as_float(unsigned x) {
  float r;
  std::memcpy(&r, &x, 4);
  return r;
}
PKEMU_HD inline long long __double_as_longlong(double x) {
  long long r;
  std::memcpy(&r, &x, 8);
  return r;
}
PKEMU_HD inline double __longlong_as_double(long long x) {
  double r;
  std::memcpy(&r, &x, 8);
  return r;
}
PKEMU_HD inline int __double2hiint(double x) {
  return (int)(__double_as_longlong(x) >> 32);
}
PKEMU_HD inline int __double2loint(double x) {
  return (int)__double_as_longlong(x);
}
PKEMU_HD inline double __hiloint2double(int hi, int lo) {
  return __longlong_as_double(
      (long long)(((unsigned long long)(unsigned)hi << 32) | (unsigned)lo));
}

// Loads/stores with cache hints.
template <class T> PKEMU_HD inline T __ldg(const T *p) { return *p; }
template <class T> PKEMU_HD inline T __ldcg(const T *p) { return *p; }
template <class T> PKEMU_HD inline T __ldca(const T *p) { return *p; }
template <class T> PKEMU_HD inline T __ldcs(const T *p) { return *p; }
template <class T> PKEMU_HD inline T __ldlu(const T *p) { return *p; }
template <class T> PKEMU_HD inline T __ldcv(const T *p) { return *p; }
template <class T> PKEMU_HD inline void __stcg(T *p, T v) { *p = v; }
template <class T> PKEMU_HD inline void __stcs(T *p, T v) { *p = v; }
template <class T> PKEMU_HD inline void __stwb(T *p, T v) { *p = v; }
template <class T> PKEMU_HD inline void __stwt(T *p, T v) { *p = v; }

// Misc.
PKEMU_HD inline long long clock64() {
  return (long long)__builtin_readcyclecounter();
}
PKEMU_HD inline unsigned long long __globaltimer() {
  return (unsigned long long)__builtin_readcyclecounter();
}
PKEMU_HD inline void __nanosleep(unsigned) { ::pkemu::detail::yield(); }
[[noreturn]] PKEMU_HD inline void __trap(PKEMU_LOC_PARAMS) {
  ::pkemu::detail::fatal("trap", "__trap() executed", PKEMU_LOC);
}
[[noreturn]] PKEMU_HD inline void __brkpt(PKEMU_LOC_PARAMS) {
  ::pkemu::detail::fatal("trap", "__brkpt() executed", PKEMU_LOC);
}
PKEMU_HD inline void __prof_trigger(int) {}
PKEMU_HD inline unsigned int __isShared(const void *p) {
#ifdef PKEMU_PARSE
  (void)p;
  return 0;
#else
  return (std::uintptr_t)p - ::pkemu::detail::pkemu_t_arena_lo <
         ::pkemu::detail::pkemu_t_arena_size;
#endif
}
PKEMU_HD inline unsigned int __isGlobal(const void *p) {
  return !__isShared(p);
}
PKEMU_HD inline std::size_t __cvta_generic_to_shared(const void *p) {
#ifdef PKEMU_PARSE
  (void)p;
  return 0;
#else
  return (std::uintptr_t)p - ::pkemu::detail::pkemu_t_arena_lo;
#endif
}

// AMD GCN builtins commonly used in HIP device code (clang on x86 has none of
// them).
#if defined(PKEMU_LANG_HIP)
namespace pkemu {
PKEMU_HD inline int amdgcn_ds_bpermute(int addr, int v, PKEMU_LOC_PARAMS) {
  return (int)detail::coll(
      detail::coll_kind(detail::kBpermute, 4, detail::kHipForm), 0,
      (std::uint32_t)v, addr, ::warpSize, nullptr, nullptr,
      "__builtin_amdgcn_ds_bpermute", PKEMU_LOC);
}
template <class T>
PKEMU_HD inline T amdgcn_readfirstlane(T v, PKEMU_LOC_PARAMS) {
  return detail::shfl(detail::kReadFirst, detail::kHipForm, 0, v, 0, ::warpSize,
                      "__builtin_amdgcn_readfirstlane", PKEMU_LOC);
}
PKEMU_HD inline void amdgcn_wave_barrier(PKEMU_LOC_PARAMS) {
  detail::coll(detail::coll_kind(detail::kSyncWarp, 0, detail::kHipForm), 0, 0,
               0, ::warpSize, nullptr, nullptr, "__builtin_amdgcn_wave_barrier",
               PKEMU_LOC);
}
} // namespace pkemu
#define __builtin_amdgcn_ds_bpermute(...)                                      \
  ::pkemu::amdgcn_ds_bpermute(__VA_ARGS__)
#define __builtin_amdgcn_readfirstlane(...)                                    \
  ::pkemu::amdgcn_readfirstlane(__VA_ARGS__)
#define __builtin_amdgcn_wave_barrier() ::pkemu::amdgcn_wave_barrier()
#define __builtin_amdgcn_s_barrier() __syncthreads()
#define __builtin_amdgcn_s_waitcnt(x) ((void)0)
#define __builtin_amdgcn_sched_barrier(x) ((void)0)
#define __builtin_amdgcn_sched_group_barrier(...) ((void)0)
#define __builtin_amdgcn_s_setprio(x) ((void)0)
#define __builtin_amdgcn_s_sleep(x) ::pkemu::detail::yield()
#define __builtin_amdgcn_wavefrontsize() (warpSize)
#define __builtin_amdgcn_mbcnt_lo(m, b)                                        \
  ((unsigned)__builtin_popcount((unsigned)(m) & (unsigned)__lanemask_lt()) +   \
   (b))
#define __builtin_amdgcn_mbcnt_hi(m, b)                                        \
  ((unsigned)__builtin_popcount(                                               \
       (unsigned)(m) &                                                         \
       (unsigned)((unsigned long long)__lanemask_lt() >> 32)) +                \
   (b))
#endif
