//===- runtime.h - pkemu runtime API for the shims --------------*- C++ -*-===//
// Rules: none (emulator runtime)
//
// pkemu runtime API: the interface between host-compiled CUDA/HIP programs
// (through the shim headers) and libpkemu.a. Everything the shims need from the
// runtime is declared here.
//
//===----------------------------------------------------------------------===//
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <tuple>
#include <type_traits>
#include <utility>

#include "../../shim/pkemu/vector_types.h"

#ifdef PKEMU_PARSE
#define PKEMU_HD __attribute__((host, device))
#else
#define PKEMU_HD
#endif

#define PKEMU_TLS __thread __attribute__((tls_model("initial-exec")))

// ---------------------------------------------------------------------------------------------
// Built-in variables. They are per-OS-thread values that the scheduler rewrites
// on every fiber switch, so each emulated GPU thread sees its own threadIdx.
#ifdef PKEMU_PARSE
extern __attribute__((device)) const int warpSize;
extern __attribute__((device)) const uint3 threadIdx;
extern __attribute__((device)) const uint3 blockIdx;
extern __attribute__((device)) const dim3 blockDim;
extern __attribute__((device)) const dim3 gridDim;
#else
extern "C" {
// Emulated warp width (32 or 64), fixed before main runs.
#ifdef PKEMU_RUNTIME_BUILD
extern int warpSize;
#else
extern const int warpSize;
#endif
extern PKEMU_TLS uint3 threadIdx;
extern PKEMU_TLS uint3 blockIdx;
extern PKEMU_TLS dim3 blockDim;
extern PKEMU_TLS dim3 gridDim;
}
#endif

namespace pkemu {

// Identity of one in-function `__shared__` declaration (constant-initialised,
// one per declaration site and template instantiation).
struct SharedDecl {
  std::size_t size;
  std::size_t align;
  const char *name;
  const char *file;
  int line;
};

namespace detail {

extern "C" {
// [t_arena_lo, t_arena_lo + t_arena_size) is the current block's shared-memory
// arena; size is 0 outside kernel execution. The memory hooks test this range
// first.
extern PKEMU_TLS std::uintptr_t pkemu_t_arena_lo;
extern PKEMU_TLS std::uintptr_t pkemu_t_arena_size;
extern PKEMU_TLS char
    *pkemu_t_dyn_base; // dynamic shared memory of the current block
extern PKEMU_TLS unsigned pkemu_t_lin;  // linear thread id in the block
extern PKEMU_TLS unsigned pkemu_t_lane; // lane in the warp
extern PKEMU_TLS unsigned
    pkemu_t_atomics; // atomics since the last scheduling point
// The location the last atomic or volatile access used (deadlock detection:
// a block that keeps polling it while its value stays the same waits).
extern PKEMU_TLS const void *pkemu_t_spin_addr;
extern PKEMU_TLS unsigned pkemu_t_spin_size;
// Set when the running launch did something whose outcome is not a function
// of device memory and its arguments (an atomic, a volatile access, an
// access to host memory, or a call the plugin's Effects pass marks: printf,
// clock, malloc, ...): such a launch is never replayed (replay.cpp).
extern PKEMU_TLS unsigned char pkemu_t_effects;
// 0 from the runtime; the plugin's Effects pass replaces each call by 1.
int __pkemu_effects_pass_ran(void);
}

// Collective operation codes (low byte of the kind word).
enum CollOp : std::uint32_t {
  kShflIdx = 1,
  kShflUp,
  kShflDown,
  kShflXor,
  kBallot,
  kAny,
  kAll,
  kSyncWarp,
  kMatchAny,
  kMatchAll,
  kReadFirst,
  kBpermute,
  kCustom
};
// Flags (upper bits of the kind word).
enum CollFlag : std::uint32_t {
  kSyncForm = 1u << 16, // *_sync form: participants = mask
  kHipForm = 1u << 17,  // HIP spelling (non-sync: all live lanes of the wave)
  kSiteForm = 1u << 18, // non-sync, one collective per call site (the lanes
                        // that reach it together: coalesced_threads)
};
inline constexpr std::uint32_t coll_kind(CollOp op, unsigned size,
                                         std::uint32_t flags) {
  return std::uint32_t(op) | (std::uint32_t(size) << 8) | flags;
}

// What a custom collective (WMMA/MFMA) sees when the last lane arrives.
struct CollView {
  int width;          // emulated warp width
  std::uint64_t mask; // participating lanes
  void *payload[64];  // per-lane payload pointers (lane-indexed)
};
using CollFn = void (*)(CollView &);

// Warp collective: every participating lane calls it; the last arrival computes
// all results.
std::uint64_t coll(std::uint32_t kind, std::uint64_t mask, std::uint64_t value,
                   std::int64_t arg, int width, void *payload, CollFn fn,
                   const char *name, const char *file, int line);
// The same for collectives without payload or custom function (shuffles, votes,
// __syncwarp), with every argument in a register: kind_width = kind | width <<
// 32 and arg_line = (uint32)arg | line << 32 (collectives only use the low 32
// bits of arg).
std::uint64_t coll_packed(std::uint64_t kind_width, std::uint64_t mask,
                          std::uint64_t value, std::uint64_t arg_line,
                          const char *name, const char *file);
PKEMU_HD inline std::uint64_t coll_fast(std::uint32_t kind, std::uint64_t mask,
                                        std::uint64_t value, std::int64_t arg,
                                        int width, const char *name,
                                        const char *file, int line) {
  return coll_packed(
      kind | (std::uint64_t)(std::uint32_t)width << 32, mask, value,
      (std::uint32_t)arg | (std::uint64_t)(std::uint32_t)line << 32, name,
      file);
}
// __syncthreads family. kind: 0 plain, 1 count, 2 and, 3 or.
int barrier(int kind, int pred, const char *file, int line);
// Give other threads of the block a chance to run (spin loops on
// atomics/volatile).
void yield();
// A block-wide barrier other than __syncthreads completed (cuda::barrier):
// the shared-memory race checks treat what came before as ordered before
// what comes after, as for __syncthreads.
void shared_epoch_advance();
// Shared memory.
void *shared_alloc(const SharedDecl *decl);
__attribute__((noinline)) void atomic_slow(const void *addr, unsigned size,
                                           bool exch);
// Device memory (cudaMalloc / hipMalloc / *MallocManaged). Every buffer lives
// in its own 4 GiB slot of one reserved address range, starting in the middle
// of the slot, so an access is checked with one subtraction, a shift and a
// load of the slot's size: outside [lo, lo + span) it is not device memory;
// inside, it is in bounds when its offset from the slot's middle is below the
// buffer's size (a freed or unused slot has size 0).
constexpr unsigned kDeviceSlotShift = 32;
constexpr unsigned kDeviceSlots = 1024;
struct DeviceHeap {
  std::uintptr_t lo;                // start of the reserved range
  std::uintptr_t span;              // its size (0: nothing reserved)
  std::uint64_t size[kDeviceSlots]; // buffer size per slot (0: none)
};
constexpr std::uint64_t kDeviceSlotHalf = std::uint64_t(1) << 31;
extern "C" DeviceHeap pkemu_device_heap;
// The runtime's own state read or written by code inlined into emulated
// programs: as relaxed atomics, which the ThreadSanitizer instrumentation
// leaves alone (-fno-sanitize-thread-atomics), so that reading it does not go
// through the memory hooks; plain loads and stores on x86-64 and AArch64.
template <class T> inline T rt_load(const T &x) {
  return __atomic_load_n(&x, __ATOMIC_RELAXED);
}
template <class T, class U> inline void rt_store(T &x, U v) {
  __atomic_store_n(&x, (T)v, __ATOMIC_RELAXED);
}
// The next spin point polls n bytes at a (runtime-internal waits).
inline void spin_wait_on(const void *a, unsigned n) {
  rt_store(pkemu_t_spin_addr, a);
  rt_store(pkemu_t_spin_size, n);
}
inline bool device_out_of_bounds(std::uintptr_t a, std::size_t n) {
  std::uintptr_t off = a - rt_load(pkemu_device_heap.lo);
  if (__builtin_expect(off >= rt_load(pkemu_device_heap.span), 1))
    return false;
  std::uint64_t rel =
      (off & ((std::uint64_t(1) << kDeviceSlotShift) - 1)) - kDeviceSlotHalf;
  std::uint64_t size = rt_load(pkemu_device_heap.size[off >> kDeviceSlotShift]);
  return rel >= size || size - rel < n;
}
// Memory a kernel may access besides shared memory and device buffers: the
// fiber stacks (one reserved range), thread-local storage and the program's
// own image (its globals, __device__ and __constant__ variables left in their
// storage among them). The memory hooks test the private part inline
// (private_memory); the rest goes to outside_access, which notes the effect
// (replay.cpp) and leaves what known_memory does not cover to
// foreign_access, which knows the rest (pinned and registered host memory,
// the stacks of the threads that launch kernels, shared libraries, memory
// that kernels allocate) and reports an access to none of them.
struct KnownMemory {
  std::uintptr_t stack_lo, stack_span;
  std::uintptr_t image_lo, image_span;
};
extern "C" KnownMemory pkemu_known_memory;
// This thread's static thread-local storage (threadIdx, ...), and the last
// range foreign_access found allowed.
extern PKEMU_TLS std::uintptr_t pkemu_t_tls_lo, pkemu_t_tls_size;
extern PKEMU_TLS std::uintptr_t pkemu_t_ok_lo, pkemu_t_ok_size;
// The part of it that is private to the running threads: the fiber stacks
// and thread-local storage. An access elsewhere outside shared and device
// memory goes to outside_access (hooks.cpp).
inline bool private_memory(std::uintptr_t a) {
  return a - rt_load(pkemu_known_memory.stack_lo) <
             rt_load(pkemu_known_memory.stack_span) ||
         a - rt_load(pkemu_t_tls_lo) < rt_load(pkemu_t_tls_size);
}
void outside_access(const void *a, std::size_t n, bool write, void *pc);
inline bool known_memory(std::uintptr_t a) {
  return a - rt_load(pkemu_known_memory.stack_lo) <
             rt_load(pkemu_known_memory.stack_span) ||
         a - rt_load(pkemu_known_memory.image_lo) <
             rt_load(pkemu_known_memory.image_span) ||
         a - rt_load(pkemu_t_tls_lo) < rt_load(pkemu_t_tls_size) ||
         a - rt_load(pkemu_t_ok_lo) < rt_load(pkemu_t_ok_size);
}
void foreign_access(const void *a, std::size_t n, bool write, void *pc);
// Reports an access of n bytes at a outside every live device buffer.
void device_oob(const void *a, std::size_t n, bool write, void *pc,
                const char *how);
// The same for an atomic; not inlined, so that its return address is the
// atomic's call site in the kernel.
void device_atomic_oob(const void *a, std::size_t n);
// Reports. `fatal` aborts the launch (exit 86); `error` records and continues.
[[noreturn]] void fatal(const char *kind, const char *msg, const char *file,
                        int line);
void error(const char *kind, const char *msg, const char *file, int line);
// Launching.
struct LaunchArgs {
  const void *fn;
  void (*thunk)(void *);
  void *pack;
  dim3 grid, block;
  std::size_t shmem;
  void *stream;
  // cudaLaunchCooperativeKernel / hipLaunchCooperativeKernel: the grid must
  // be co-resident, and grid_group::sync is allowed.
  bool cooperative = false;
  const char *file = nullptr; // call site of a launch API (reports)
  int line = 0;
  // The bytes of `pack` that, with the kernel and configuration, make up the
  // launch (its arguments); 0 when the launch cannot be compared with
  // another (replay.cpp).
  std::size_t pack_size = 0;
};
// How a launch was requested (launch_ex).
struct LaunchSite {
  bool cooperative = false;
  const char *file = nullptr;
  int line = 0;
  // The kernel is reached through state outside its arguments (launch_call's
  // closure): never replayed.
  bool no_replay = false;
};
// Registers the translation unit's answer to __pkemu_effects_pass_ran.
void register_effects_pass(int ran);
int launch_kernel(
    const LaunchArgs &a); // returns 0 or an error code (cudaError numbering)
void register_translation_unit(int default_warp, int lang_hip);
// cooperative_groups::grid_group::sync(): a barrier across every thread of a
// cooperative launch (reported in any other launch).
void grid_sync(const char *file, int line);
// Whether the running kernel was launched cooperatively.
bool grid_is_cooperative();

// An atomic outside shared memory that is out of bounds of its device buffer
// or is no device memory; not inlined, so that its return address is the
// atomic's call site.
void atomic_outside(const void *a, std::size_t n);
// Always inlined: reports name the atomic's call site by the return address
// of atomic_slow / atomic_outside.
__attribute__((always_inline)) inline void
note_atomic(const void *addr, unsigned size, bool exch = false) {
#ifndef PKEMU_PARSE
  const std::uintptr_t a = (std::uintptr_t)addr;
  if (a - rt_load(pkemu_t_arena_lo) < rt_load(pkemu_t_arena_size))
    atomic_slow(addr, size, exch);
  else if (__builtin_expect(a - rt_load(pkemu_device_heap.lo) <
                                    rt_load(pkemu_device_heap.span)
                                ? device_out_of_bounds(a, size)
                                : !known_memory(a),
                            0))
    atomic_outside(addr, size);
  rt_store(pkemu_t_spin_addr, addr);
  rt_store(pkemu_t_spin_size, size);
  rt_store(pkemu_t_effects, (unsigned char)1);
  unsigned k = rt_load(pkemu_t_atomics) + 1;
  rt_store(pkemu_t_atomics, k);
  if (__builtin_expect(k >= 256, 0))
    yield();
#else
  (void)addr;
  (void)size;
  (void)exch;
#endif
}

// The arguments of a launch: one base per parameter, so that the thunk reads
// them as plain members (std::get would be a call per argument and thread:
// functions compiled with the memory hooks are not inlined into the thunk).
template <std::size_t I, class T> struct ArgSlot {
  T v;
};
template <class Seq, class... T> struct ArgStore;
template <std::size_t... I, class... T>
struct ArgStore<std::index_sequence<I...>, T...> : ArgSlot<I, T>... {};

template <class T> struct KernelPack;
template <class... P> struct KernelPack<void (*)(P...)> {
  using Seq = std::index_sequence_for<P...>;
  void (*k)(P...);
  ArgStore<Seq, std::decay_t<P>...> args;
  // Every thread copies the launch's arguments out of the launching thread's
  // frame into its parameters. Those reads are the emulator's, not the
  // kernel's: they pass no memory hook (no_sanitize, which also keeps the
  // kernel from being inlined here, so its own accesses keep theirs).
  __attribute__((no_sanitize("thread"))) static void thunk(void *p) {
    call(static_cast<KernelPack *>(p), Seq{});
  }
  template <std::size_t... I>
  __attribute__((no_sanitize("thread"))) static void
  call(KernelPack *self, std::index_sequence<I...>) {
    self->k(static_cast<ArgSlot<I, std::decay_t<P>> &>(self->args).v...);
  }
};
template <class T, class U> inline T implicit_conv(U &&u) {
  if constexpr (std::is_pointer<T>::value &&
                std::is_integral<std::decay_t<U>>::value) {
    // `0` passed for a pointer parameter: a null pointer constant (the only
    // integer nvcc accepts there), which arrives here as a value.  `NULL`
    // arrives as pkemu::null_arg (the preparation writes it).
    (void)u;
    return nullptr;
  } else {
    return std::forward<U>(u);
  }
}

inline void *to_stream(std::nullptr_t) { return nullptr; }
inline void *to_stream(long long v) {
  return reinterpret_cast<void *>(static_cast<std::intptr_t>(v));
}
template <class S> inline void *to_stream(S *s) { return (void *)s; }
template <class S, class = std::enable_if_t<std::is_integral<S>::value ||
                                            std::is_enum<S>::value>>
inline void *to_stream(S v) {
  return reinterpret_cast<void *>(static_cast<std::intptr_t>(v));
}

} // namespace detail

// The prepared-source launch: k<<<g, b, sh, st>>>(args...) -> pkemu::launch(k,
// g, b, sh, st, args...)
template <class... P, class S, class... A>
inline int launch_ex(detail::LaunchSite site, void (*k)(P...), dim3 grid,
                     dim3 block, std::size_t shmem, S stream, A &&...args) {
  static_assert(sizeof...(P) == sizeof...(A),
                "pkemu::launch: wrong number of kernel arguments");
  detail::KernelPack<void (*)(P...)> pack{
      k, {{detail::implicit_conv<std::decay_t<P>>(std::forward<A>(args))}...}};
  constexpr bool kComparable =
      (std::is_trivially_copyable<std::decay_t<P>>::value && ...);
  detail::LaunchArgs la{(const void *)k,
                        &detail::KernelPack<void (*)(P...)>::thunk,
                        &pack,
                        grid,
                        block,
                        shmem,
                        detail::to_stream(stream),
                        site.cooperative,
                        site.file,
                        site.line,
                        kComparable && !site.no_replay ? sizeof(pack) : 0};
  return detail::launch_kernel(la);
}
template <class... P, class S, class... A>
inline int launch(void (*k)(P...), dim3 grid, dim3 block, std::size_t shmem,
                  S stream, A &&...args) {
  return launch_ex(detail::LaunchSite{}, k, grid, block, shmem, stream,
                   std::forward<A>(args)...);
}
template <class... P>
inline int launch(void (*k)(P...), dim3 grid, dim3 block) {
  static_assert(sizeof...(P) == 0,
                "pkemu::launch: wrong number of kernel arguments");
  return launch(k, grid, block, 0, 0);
}

// The prepared-source launch of an overload set or of a function template
// whose arguments the launch deduces, where the function cannot be named by
// its type (a launch in a template): `call` is a generic lambda that calls
// the kernel with its arguments, `[=](auto... a) { k<N>(a...); }`.  It
// captures what the callee's template arguments name (`k<c.value>` in a
// generic lambda over `auto c`).  Each thread runs it with copies of the
// launch's arguments (decayed), so the kernel is the one the original launch
// resolves to.  The launch is synchronous: the closure is reached through a
// pointer that CallThunk holds for the launch's duration, one launch of a
// closure type at a time.
/// A launch argument written NULL (the preparation writes this for it):
/// converts to any pointer, as the null pointer constant did.
struct null_arg {
  template <class T> constexpr operator T *() const { return nullptr; }
};
namespace detail {
template <class F, class... P> struct CallThunk {
  static inline const F *fn = nullptr;
  static std::mutex &lock() {
    static std::mutex m;
    return m;
  }
  static void call(P... p) { (*fn)(p...); }
};
} // namespace detail
template <class F, class S, class... A>
inline int launch_call(F call, dim3 grid, dim3 block, std::size_t shmem,
                       S stream, A &&...args) {
  using T = detail::CallThunk<F, std::decay_t<A>...>;
  std::lock_guard<std::mutex> hold(T::lock());
  T::fn = &call;
  detail::LaunchSite site;
  site.no_replay = true;
  return launch_ex(site, &T::call, grid, block, shmem, stream,
                   std::forward<A>(args)...);
}

// Launch from a void** argument array (cudaLaunchKernel / hipLaunchKernel, and
// the cooperative forms).
template <class... P, std::size_t... I>
inline int launch_argv_impl(detail::LaunchSite site, void (*k)(P...), dim3 g,
                            dim3 b, std::size_t sh, void *st, void **argv,
                            std::index_sequence<I...>) {
  return launch_ex(site, k, g, b, sh, st,
                   *static_cast<std::decay_t<P> *>(argv[I])...);
}
template <class... P>
inline int launch_argv(void (*k)(P...), dim3 g, dim3 b, void **argv,
                       std::size_t sh, void *st,
                       detail::LaunchSite site = detail::LaunchSite{}) {
  return launch_argv_impl(site, k, g, b, sh, st, argv,
                          std::index_sequence_for<P...>{});
}

// __device__ and __constant__ variables at namespace scope (the emulator
// preparation, PKEMU_DEVICE_VAR): each lives in a checked device buffer of
// its own, initialised from the original definition (renamed pkemu_dv_NAME),
// so that an access past its end is reported like a device-buffer overflow.
// A type that cannot be copied bytewise, or no buffer left, keeps the
// original storage (unchecked).
namespace detail {
void *device_var_alloc(const void *init, std::size_t n, const char *name,
                       const char *file, int line);
// A variable kept in its original storage: part of the device memory that
// replay compares.
void device_var_in_place(const void *p, std::size_t n);
} // namespace detail
template <class T>
inline T &device_var(T &storage, const char *name, const char *file, int line) {
#ifdef PKEMU_PARSE
  (void)name, (void)file, (void)line;
  return storage;
#else
  if constexpr (std::is_trivially_copyable<T>::value) {
    if (void *p =
            detail::device_var_alloc(&storage, sizeof(T), name, file, line))
      return *static_cast<T *>(p);
  }
  detail::device_var_in_place(&storage, sizeof(T));
  return storage;
#endif
}

// Shared memory of the current block.
template <class T> PKEMU_HD inline T &shared_var(const SharedDecl &d) {
#ifdef PKEMU_PARSE
  return *reinterpret_cast<T *>(
      const_cast<SharedDecl *>(&d)); // never evaluated: parse only
#else
  return *static_cast<T *>(detail::shared_alloc(&d));
#endif
}
template <class T> PKEMU_HD inline T *dynamic_shared() {
#ifdef PKEMU_PARSE
  return nullptr;
#else
  return reinterpret_cast<T *>(detail::rt_load(detail::pkemu_t_dyn_base));
#endif
}

} // namespace pkemu

// ---------------------------------------------------------------------------------------------
// Shared-memory declarations produced by the emu-prep rewrite.
#define PKEMU_SHARED(name, ...)                                                \
  static constexpr ::pkemu::SharedDecl pkemu_sd_##name{                        \
      sizeof(__VA_ARGS__), alignof(__VA_ARGS__), #name, __FILE__, __LINE__};   \
  auto &name = ::pkemu::shared_var<__VA_ARGS__>(pkemu_sd_##name)
#define PKEMU_DYNAMIC_SHARED(name, ...)                                        \
  std::add_pointer_t<__VA_ARGS__> name = ::pkemu::dynamic_shared<__VA_ARGS__>()
#define PKEMU_DEVICE_VAR(name, ...)                                            \
  std::add_lvalue_reference_t<__VA_ARGS__> name =                              \
      ::pkemu::device_var(pkemu_dv_##name, #name, __FILE__, __LINE__)
#define PKEMU_DEVICE_VAR_REF(...) std::add_lvalue_reference_t<__VA_ARGS__>
#define PKEMU_GLOBAL_SHARED(name, ...)                                         \
  using pkemu_st_##name = __VA_ARGS__;                                         \
  inline constexpr ::pkemu::SharedDecl pkemu_sd_##name{                        \
      sizeof(__VA_ARGS__), alignof(__VA_ARGS__), #name, __FILE__, __LINE__};   \
  PKEMU_HD inline pkemu_st_##name &pkemu_shared_##name() {                     \
    return ::pkemu::shared_var<pkemu_st_##name>(pkemu_sd_##name);              \
  }
