//===- inline_hooks.h - the memory hooks' fast path, inlined ----*- C++ -*-===//
// Rules: none (emulator runtime)
//
// With PKEMU_INLINE_HOOKS, a program carries its own definitions of the
// ThreadSanitizer hooks of aligned and unaligned loads and stores: the fast
// path of lib/Emu/runtime/hooks.cpp (outside shared memory, inside a live
// device buffer or memory a kernel may touch), and a call to the runtime's
// full check otherwise.  The instrumentation pass inserts its calls after
// the optimiser has inlined, so validate compiles such a program in two
// steps (to bitcode with -fsanitize=thread, then that bitcode at -O2): the
// second step inlines these bodies into the kernels, where the checks'
// loads of the block's ranges are shared by neighbouring accesses.  The
// slow path's own return address is the access's location for reports.
//
//===----------------------------------------------------------------------===//
#pragma once
#include <cstddef>
#include <cstdint>

namespace pkemu {
namespace detail {
extern "C" void pkemu_hook_slow(const void *a, std::size_t n, bool write);
__attribute__((no_sanitize("thread"), always_inline)) inline bool
hook_fast(const void *p, std::size_t n) {
  const std::uintptr_t a = (std::uintptr_t)p;
  if (__builtin_expect(a - pkemu_t_arena_lo < pkemu_t_arena_size, 0))
    return false;
  if (a - rt_load(pkemu_device_heap.lo) < rt_load(pkemu_device_heap.span))
    return !device_out_of_bounds(a, n);
  return pkemu_t_arena_size == 0 || private_memory(a);
}
} // namespace detail
} // namespace pkemu

#define PKEMU_INLINE_HOOK(N)                                                   \
  extern "C" __attribute__((used, no_sanitize("thread"), always_inline))       \
  inline void __tsan_read##N(void *a) {                                        \
    if (__builtin_expect(!::pkemu::detail::hook_fast(a, N), 0))                \
      ::pkemu::detail::pkemu_hook_slow(a, N, false);                           \
  }                                                                            \
  extern "C" __attribute__((used, no_sanitize("thread"), always_inline))       \
  inline void __tsan_write##N(void *a) {                                       \
    if (__builtin_expect(!::pkemu::detail::hook_fast(a, N), 0))                \
      ::pkemu::detail::pkemu_hook_slow(a, N, true);                            \
  }                                                                            \
  extern "C" __attribute__((used, no_sanitize("thread"), always_inline))       \
  inline void __tsan_unaligned_read##N(void *a) {                              \
    if (__builtin_expect(!::pkemu::detail::hook_fast(a, N), 0))                \
      ::pkemu::detail::pkemu_hook_slow(a, N, false);                           \
  }                                                                            \
  extern "C" __attribute__((used, no_sanitize("thread"), always_inline))       \
  inline void __tsan_unaligned_write##N(void *a) {                             \
    if (__builtin_expect(!::pkemu::detail::hook_fast(a, N), 0))                \
      ::pkemu::detail::pkemu_hook_slow(a, N, true);                            \
  }
PKEMU_INLINE_HOOK(1)
PKEMU_INLINE_HOOK(2)
PKEMU_INLINE_HOOK(4)
PKEMU_INLINE_HOOK(8)
PKEMU_INLINE_HOOK(16)
#undef PKEMU_INLINE_HOOK
