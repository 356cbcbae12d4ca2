//===- hooks.cpp - shared-memory checks in the tsan hooks -----------------===//
// Rules: none (emulator runtime)
//
// ThreadSanitizer instrumentation entry points. Emulated programs are compiled
// with -fsanitize=thread but linked without the tsan runtime: these definitions
// receive every instrumented load/store. Fast path: one range check against the
// current block's shared-memory arena. Inside the arena: out-of-bounds,
// uninitialised-read and data-race detection.
//
//===----------------------------------------------------------------------===//
#include <cstdio>
#include <cstring>
#include <string>

#include "internal.h"

namespace pkemu {
namespace detail {

static constexpr std::uint16_t kNoTid = 0xffff;

static inline bool synced(const Worker &w, std::uint32_t p, std::uint32_t t,
                          std::uint32_t stamp) {
  std::uint32_t W = (std::uint32_t)w.W;
  if (p / W != t / W)
    return false;
  const Warp &wp = w.warps[t / W];
  if (wp.last_full > stamp)
    return true;
  return !wp.pair.empty() && wp.pair[(p % W) * 64 + (t % W)] > stamp;
}

static std::string where(const Worker &w, std::size_t off, std::size_t n) {
  // Name the declared object that contains (or precedes) this offset.
  const char *name = nullptr;
  std::size_t start = 0, size = 0;
  if (off < w.dyn_size || (w.decls.empty() && off < w.dyn_size + 64)) {
    name = "dynamic shared memory";
    start = 0;
    size = w.dyn_size;
  }
  for (auto &d : w.decls)
    if (d.off <= off && (!name || d.off >= start)) {
      name = d.d->name;
      start = d.off;
      size = d.d->size;
    }
  if (!name && w.dyn_size == 0) {
    name = "dynamic shared memory";
    size = 0;
  }
  char buf[256];
  if (!name) {
    std::snprintf(buf, sizeof buf, "%zu bytes at offset %zu of shared memory",
                  n, off);
  } else if (off < start + size) {
    std::snprintf(buf, sizeof buf,
                  "%zu bytes at '%s'+%zu (object of %zu bytes)", n, name,
                  off - start, size);
  } else {
    std::snprintf(
        buf, sizeof buf,
        "%zu bytes at '%s'+%zu, %zu bytes past the end of the %zu-byte object",
        n, name, off - start, off - start - size, size);
  }
  return buf;
}

static std::string thread_str(const Worker &w, std::uint32_t lin) {
  const Fiber &f = w.fibers[lin];
  char buf[128];
  std::snprintf(buf, sizeof buf,
                "thread %u (threadIdx (%u,%u,%u), warp %u lane %u)", lin,
                f.tid.x, f.tid.y, f.tid.z, f.warp, f.lane);
  return buf;
}

static void report_mem(Worker &w, const char *kind, std::string text, void *pc0,
                       void *pc1) {
  Report r;
  r.kind = kind;
  r.kernel = w.L ? w.L->a.fn : nullptr;
  r.text = std::move(text);
  r.pcs[0] = pc0;
  r.pcs[1] = pc1;
  add_report(std::move(r));
}

__attribute__((noinline, cold)) static void
race(Worker &w, Fiber *f, bool write, std::size_t off,
                 std::size_t n, void *pc, std::uint32_t other, bool other_write,
                 std::int32_t other_pc) {
  std::string text = "data race on shared memory in block " +
                     block_str(w.bidx) + ": " + thread_str(w, f->lin) +
                     (write ? " writes " : " reads ") + where(w, off, n) +
                     " at {pc0}; " + thread_str(w, other) +
                     (other_write ? " wrote" : " read") +
                     " them at {pc1} with no __syncthreads, __syncwarp or warp "
                     "collective covering both threads in between";
  report_mem(w, "data race", std::move(text), pc, i32_to_pc(other_pc));
}

// The reports of shared_access, out of line: building their text needs
// strings whose frames would otherwise keep the per-byte loop's variables in
// memory.
__attribute__((noinline, cold)) static void
shared_oob(Worker &w, Fiber *f, bool write, std::size_t off, std::size_t n,
           void *pc) {
  std::string text = "out-of-bounds shared memory access in block " +
                     block_str(w.bidx) + ": " + thread_str(w, f->lin) +
                     (write ? " writes " : " reads ") + where(w, off, n) +
                     " (outside every declared __shared__ object)";
  report_mem(w, "out-of-bounds shared memory access", std::move(text), pc,
             nullptr);
}
__attribute__((noinline, cold)) static void
shared_uninit(Worker &w, Fiber *f, std::size_t off, std::size_t n, void *pc) {
  std::string text = "read of uninitialised shared memory in block " +
                     block_str(w.bidx) + ": " + thread_str(w, f->lin) +
                     " reads " + where(w, off, n) +
                     " that no thread has written since the block started";
  report_mem(w, "uninitialised shared memory read", std::move(text), pc,
             nullptr);
}

// What the cold report paths of one shared-memory access need.
struct SharedAccess {
  Worker &w;
  std::size_t off, n;
  void *pc;
};

// What a cell remembers of an access that did not race (or whose race is
// reported): a write replaces the writer and forgets the readers, a read
// becomes the first reader of this epoch, refreshes its own entry, or takes
// the second slot.
template <bool Write>
__attribute__((always_inline)) static inline void
record_access(Cell &c, std::uint32_t E, std::uint16_t t, std::uint32_t stamp,
              std::int32_t ipc) {
  if (Write) {
    c.w_epoch = E;
    c.w_tid = t;
    c.w_stamp = stamp;
    c.w_pc = ipc;
    c.r_epoch = 0;
  } else if (c.r_epoch != E) {
    c.r_epoch = E;
    c.r1_tid = t;
    c.r1_stamp = stamp;
    c.r1_pc = ipc;
    c.r2_tid = kNoTid;
  } else if (c.r1_tid == t) {
    c.r1_stamp = stamp;
    c.r1_pc = ipc;
  } else {
    c.r2_tid = t;
    c.r2_stamp = stamp;
    c.r2_pc = ipc;
  }
}

// One access's check and update of one shadow cell (a word's or a byte's).
// Each kind of report fires once per access (`raced`).
template <bool Write>
__attribute__((always_inline)) static inline void
touch_cell(const SharedAccess &A, Cell &c, std::uint32_t E, std::uint16_t t,
           std::uint32_t stamp, std::int32_t ipc, bool &raced) {
  Worker &w = A.w;
  if (c.w_epoch == E && c.w_tid != t && !raced &&
      !synced(w, c.w_tid, t, c.w_stamp)) {
    raced = true;
    race(w, A.w.cur, Write, A.off, A.n, A.pc, c.w_tid, true, c.w_pc);
  }
  if (Write) {
    if (c.r_epoch == E && !raced) {
      if (c.r1_tid != t && !synced(w, c.r1_tid, t, c.r1_stamp)) {
        raced = true;
        race(w, A.w.cur, Write, A.off, A.n, A.pc, c.r1_tid, false, c.r1_pc);
      } else if (c.r2_tid != kNoTid && c.r2_tid != t &&
                 !synced(w, c.r2_tid, t, c.r2_stamp)) {
        raced = true;
        race(w, A.w.cur, Write, A.off, A.n, A.pc, c.r2_tid, false, c.r2_pc);
      }
    }
  }
  record_access<Write>(c, E, t, stamp, ipc);
}

// A word's shadow becomes per byte: its cell is copied to its four byte
// cells, and its state bytes carry kSplitWord until a whole-word write joins
// it again or the block ends.
__attribute__((noinline)) static void split_word(Worker &w, std::size_t wb) {
  const Cell c = w.wcells[wb >> 2];
  for (std::size_t i = wb; i < wb + 4; ++i) {
    w.cells[i] = c;
    w.sstate[i] |= kSplitWord;
  }
  w.split_hi = std::max(w.split_hi, wb + 4);
}

// The check and shadow update of a read or a write (template: the loop has
// one shape per kind, with its hot values in registers). The shadow is kept
// per 4-byte word while every access covers words whole, so a float or a
// float4 costs one state load and one cell per word. A word that an access
// covers in part, or whose bytes are not all declared, is split and checked
// byte by byte; both give exactly the reports of a per-byte shadow, since the
// four bytes of a word that is never split see the same accesses.
template <bool Write>
__attribute__((always_inline)) static inline void
shared_bytes(const SharedAccess &A, std::uint32_t E, std::uint16_t t,
             std::uint32_t stamp, std::int32_t ipc) {
  Worker &w = A.w;
  std::uint8_t *const ss = w.sstate;
  bool oob = false, uninit = false, raced = false;
  std::size_t i = A.off;
  const std::size_t e = A.off + A.n;
  while (i < e) {
    const std::size_t wb = i & ~std::size_t(3), we = wb + 4;
    if (i == wb && we <= e) {
      std::uint32_t s;
      std::memcpy(&s, ss + wb, 4);
      // Four declared bytes (states 1 or 2), not split.
      if (__builtin_expect(((s | s >> 1) & 0x01010101u) == 0x01010101u &&
                               !(s & 0x80808080u),
                           1)) {
        if (!Write && __builtin_expect(s != 0x02020202u, 0) && !uninit) {
          uninit = true;
          shared_uninit(w, A.w.cur, A.off, A.n, A.pc);
        }
        touch_cell<Write>(A, w.wcells[wb >> 2], E, t, stamp, ipc, raced);
        if (Write) {
          s = 0x02020202u;
          std::memcpy(ss + wb, &s, 4);
        }
        i = we;
        continue;
      }
    }
    if (!(ss[wb] & kSplitWord))
      split_word(w, wb);
    const bool whole = i == wb && we <= e;
    bool declared = true;
    for (const std::size_t be = std::min(e, we); i < be; ++i) {
      const std::uint8_t st = ss[i] & ~kSplitWord;
      if (__builtin_expect(st == 0, 0)) {
        declared = false;
        if (!oob) {
          oob = true;
          shared_oob(w, A.w.cur, Write, A.off, A.n, A.pc);
        }
        continue;
      }
      if (!Write && __builtin_expect(st == 1, 0) && !uninit) {
        uninit = true;
        shared_uninit(w, A.w.cur, A.off, A.n, A.pc);
      }
      touch_cell<Write>(A, w.cells[i], E, t, stamp, ipc, raced);
      if (Write)
        ss[i] = 2 | kSplitWord;
    }
    // A write of the whole word left its four byte cells equal: join.
    if (Write && whole && declared) {
      w.wcells[wb >> 2] = w.cells[wb];
      const std::uint32_t s = 0x02020202u;
      std::memcpy(ss + wb, &s, 4);
    }
  }
}

// Any access: the general path, with every check and report.
__attribute__((noinline)) static void
shared_access_general(Worker &w, std::size_t off, std::size_t n, bool write,
                      void *pc) {
  const SharedAccess A{w, off, n, pc};
  const std::uint32_t E = w.epoch;
  const std::uint16_t t = (std::uint16_t)pkemu_t_lin;
  const std::uint32_t stamp = w.warps[w.cur->warp].coll_count;
  const std::int32_t ipc = pc_to_i32(pc);
  if (write)
    shared_bytes<true>(A, E, t, stamp, ipc);
  else
    shared_bytes<false>(A, E, t, stamp, ipc);
}

// One aligned 4-byte access of a word that is not split, when nothing can be
// reported: an initialised word that no other thread wrote since the last
// barrier (a read), or a declared word no other thread touched since then (a
// write). Updates the cell as shared_bytes would; false leaves everything as
// it was for the general path.
template <bool Write>
__attribute__((always_inline)) static inline bool
shared_word_quiet(Worker &w, std::size_t off, void *pc) {
  std::uint32_t s;
  std::memcpy(&s, w.sstate + off, 4);
  if (Write ? (((s | s >> 1) & 0x01010101u) != 0x01010101u || (s & 0x80808080u))
            : s != 0x02020202u)
    return false;
  Cell &c = w.wcells[off >> 2];
  const std::uint32_t E = w.epoch;
  const std::uint16_t t = (std::uint16_t)pkemu_t_lin;
  if (c.w_epoch == E && c.w_tid != t)
    return false;
  if (Write && c.r_epoch == E &&
      (c.r1_tid != t || (c.r2_tid != kNoTid && c.r2_tid != t)))
    return false;
  const std::uint32_t stamp = w.warps[w.cur->warp].coll_count;
  const std::int32_t ipc = pc_to_i32(pc);
  record_access<Write>(c, E, t, stamp, ipc);
  if (Write) {
    s = 0x02020202u;
    std::memcpy(w.sstate + off, &s, 4);
  }
  return true;
}

__attribute__((noinline)) static void
shared_access(std::uintptr_t a, std::size_t n, bool write, void *pc) {
  Worker *wp = t_worker;
  if (!wp || !wp->cur)
    return;
  Worker &w = *wp;
  std::size_t off = a - (std::uintptr_t)w.arena;
  if (off + n > w.arena_cap)
    n = w.arena_cap - off;
  if (n == 4 && !(off & 3) &&
      (write ? shared_word_quiet<true>(w, off, pc)
             : shared_word_quiet<false>(w, off, pc)))
    return;
  shared_access_general(w, off, n, write, pc);
}

// An access outside every live device buffer (device_out_of_bounds said so).
void device_oob(const void *addr, std::size_t n, bool write, void *pc,
                const char *how) {
  std::uintptr_t a = (std::uintptr_t)addr;
  DeviceSlot d;
  std::int64_t rel = 0;
  if (!device_find(a, n, d, rel))
    return;
  Worker *wp = t_worker;
  bool in_kernel = wp && wp->cur;
  std::string who = in_kernel ? "in block " + block_str(wp->bidx) + ": " +
                                    thread_str(*wp, wp->cur->lin) + " "
                              : std::string("in host code: ");
  char what[1024];
  const char *verb = how ? how : write ? "writes" : "reads";
  if (d.state == DeviceSlot::kUnused) {
    std::snprintf(what, sizeof what,
                  "%s %zu bytes at %p, outside every device buffer", verb, n,
                  addr);
  } else {
    char pos[96];
    if (d.state == DeviceSlot::kFreed)
      std::snprintf(pos, sizeof pos, "at offset %lld of", (long long)rel);
    else if (rel < 0)
      std::snprintf(pos, sizeof pos, "at %lld bytes before the start of",
                    (long long)-rel);
    else if ((std::uint64_t)rel >= d.size)
      std::snprintf(pos, sizeof pos, "at %llu bytes past the end of",
                    (unsigned long long)((std::uint64_t)rel - d.size));
    else
      std::snprintf(pos, sizeof pos,
                    "at offset %lld (running %llu bytes past the end) of",
                    (long long)rel,
                    (unsigned long long)((std::uint64_t)rel + n - d.size));
    if (d.var)
      std::snprintf(what, sizeof what,
                    "%s %zu bytes %s the __device__/__constant__ variable '%s' "
                    "(%zu bytes, "
                    "defined at %s:%d)",
                    verb, n, pos, d.var, d.size, d.file ? d.file : "?", d.line);
    else
      std::snprintf(what, sizeof what,
                    "%s %zu bytes %s %sdevice buffer #%llu (%zu bytes, "
                    "allocated at {pc1})",
                    verb, n, pos,
                    d.state == DeviceSlot::kFreed ? "the freed " : "",
                    (unsigned long long)d.serial, d.size);
  }
  Report r;
  r.kind = "out-of-bounds device memory access";
  r.kernel = in_kernel && wp->L ? wp->L->a.fn : nullptr;
  r.text = "out-of-bounds device memory access " + who + what;
  r.pcs[0] = pc;
  r.pcs[1] = d.pc;
  add_report(std::move(r));
  device_open_pages(a, n);
}

__attribute__((noinline)) void device_atomic_oob(const void *a, std::size_t n) {
  device_oob(a, n, true, __builtin_return_address(0), "performs an atomic on");
}

// A kernel access outside shared memory, device buffers, fiber stacks and the
// program's image: allowed if memory_allowed knows the range (and then cached
// in pkemu_t_ok_*), otherwise reported once per location.
static PKEMU_TLS void *t_foreign_pc = nullptr;
static void foreign_report(const void *addr, std::size_t n, const char *verb,
                           void *pc) {
  std::uintptr_t a = (std::uintptr_t)addr, lo = 0, size = 0;
  if (memory_allowed(a, n, lo, size)) {
    pkemu_t_ok_lo = lo;
    pkemu_t_ok_size = size;
    return;
  }
  if (pc == t_foreign_pc)
    return;
  t_foreign_pc = pc;
  Worker *wp = t_worker;
  if (!wp || !wp->cur)
    return;
  char what[160];
  std::snprintf(what, sizeof what, "%s %zu bytes at %p", verb, n, addr);
  Report r;
  r.kind = "out-of-bounds device memory access";
  r.kernel = wp->L ? wp->L->a.fn : nullptr;
  r.text = "out-of-bounds device memory access in block " +
           block_str(wp->bidx) + ": " + thread_str(*wp, wp->cur->lin) + " " +
           what +
           ", which is not device memory: no cudaMalloc'd/hipMalloc'd buffer, "
           "pinned or registered host memory, __device__ or __constant__ "
           "variable, shared memory or thread stack holds it (host memory "
           "from malloc or new, or another host object, is not accessible to "
           "the device)";
  r.pcs[0] = pc;
  add_report(std::move(r));
}

__attribute__((noinline)) void foreign_access(const void *a, std::size_t n,
                                              bool write, void *pc) {
  foreign_report(a, n, write ? "writes" : "reads", pc);
}

// A kernel's access outside shared memory, device buffers, fiber stacks and
// thread-local storage: the program's image, host memory, or nothing it may
// touch. Only the image's read-only part (constant tables) leaves the
// launch's outcome a function of device memory (replay.cpp).
__attribute__((noinline)) void outside_access(const void *a, std::size_t n,
                                              bool write, void *pc) {
  const std::uintptr_t x = (std::uintptr_t)a;
  if (write || !image_read_only(x, n))
    pkemu_t_effects = 1;
  if (!known_memory(x))
    foreign_access(a, n, write, pc);
}

__attribute__((noinline)) void atomic_outside(const void *a, std::size_t n) {
  std::uintptr_t x = (std::uintptr_t)a;
  if (x - pkemu_device_heap.lo < pkemu_device_heap.span)
    device_oob(a, n, true, __builtin_return_address(0),
               "performs an atomic on");
  else if (pkemu_t_arena_size)
    foreign_report(a, n, "performs an atomic on", __builtin_return_address(0));
}

// Atomics: bounds and initialisation are checked (but for an exchange, whose
// result does not depend on the old value); atomics never race. Every atomic
// writes its bytes: they are initialised after it.
void atomic_slow(const void *addr, unsigned size, bool exch) {
  // The atomic's call site: note_atomic is inlined into the kernel, where a
  // return address would be the kernel's own.
  void *pc = __builtin_return_address(0);
  Worker *wp = t_worker;
  if (!wp || !wp->cur)
    return;
  Worker &w = *wp;
  std::size_t off = (std::uintptr_t)addr - (std::uintptr_t)w.arena;
  for (std::size_t i = off; i < off + size && i < w.arena_cap; ++i) {
    const std::uint8_t st = w.sstate[i] & ~kSplitWord;
    if (st == 0) {
      std::string text = "out-of-bounds shared memory access in block " +
                         block_str(w.bidx) + ": " + thread_str(w, w.cur->lin) +
                         " performs an atomic on " + where(w, off, size) +
                         " (outside every declared __shared__ object)";
      report_mem(w, "out-of-bounds shared memory access", std::move(text), pc,
                 nullptr);
      return;
    }
    if (st == 1 && !exch) {
      std::string text = "read of uninitialised shared memory in block " +
                         block_str(w.bidx) + ": " + thread_str(w, w.cur->lin) +
                         " performs an atomic on " + where(w, off, size) +
                         " that no thread has written since the block started";
      report_mem(w, "uninitialised shared memory read", std::move(text), pc,
                 nullptr);
      break;
    }
  }
  for (std::size_t i = off; i < off + size && i < w.arena_cap; ++i)
    w.sstate[i] = 2 | (w.sstate[i] & kSplitWord);
}

} // namespace detail
} // namespace pkemu

using pkemu::detail::pkemu_t_arena_lo;
using pkemu::detail::pkemu_t_arena_size;

#define PKEMU_IN_ARENA(a)                                                      \
  ((std::uintptr_t)(a) - pkemu_t_arena_lo < pkemu_t_arena_size)
#define PKEMU_RA __builtin_return_address(0)

// Volatile accesses (only seen when compiled with -mllvm
// -tsan-distinguish-volatile=1) also act as scheduling points so that spin
// loops on volatile flags make progress.
static inline void volatile_tick(void *a, unsigned n, void *pc) {
  // A volatile access outside shared memory may poll what another block
  // writes: an effect (replay.cpp). Shared memory is the block's own (the
  // warp-synchronous idiom of volatile shared arrays).
  if (!PKEMU_IN_ARENA(a))
    pkemu::detail::pkemu_t_effects = 1;
  pkemu::detail::pkemu_t_spin_addr = a;
  pkemu::detail::pkemu_t_spin_size = n;
  if (__builtin_expect(++pkemu::detail::pkemu_t_atomics >= 1024, 0))
    pkemu::detail::spin_yield(pc);
}

// Every hook: shared memory first (a thread-local range), then device memory
// (a global range and one slot-size load), then, in a kernel, the fiber
// stacks and thread-local storage; anything else a kernel touches goes to
// outside_access.
#define PKEMU_CHECK(a, N, W, PC)                                               \
  if (__builtin_expect(PKEMU_IN_ARENA(a), 0))                                  \
    pkemu::detail::shared_access((std::uintptr_t)a, N, W, PC);                 \
  else if ((std::uintptr_t)(a) - pkemu::detail::pkemu_device_heap.lo <         \
           pkemu::detail::pkemu_device_heap.span) {                            \
    if (__builtin_expect(                                                      \
            pkemu::detail::device_out_of_bounds((std::uintptr_t)a, N), 0))     \
      pkemu::detail::device_oob(a, N, W, PC, nullptr);                         \
  } else if (__builtin_expect(                                                 \
                 pkemu_t_arena_size != 0 &&                                    \
                     !pkemu::detail::private_memory((std::uintptr_t)a),        \
                 0))                                                           \
    pkemu::detail::outside_access(a, N, W, PC);

extern "C" {
#define PKEMU_HOOK(N)                                                          \
  void __tsan_read##N(void *a) { PKEMU_CHECK(a, N, false, PKEMU_RA) }          \
  void __tsan_write##N(void *a) { PKEMU_CHECK(a, N, true, PKEMU_RA) }          \
  void __tsan_unaligned_read##N(void *a) {                                     \
    PKEMU_CHECK(a, N, false, PKEMU_RA)                                         \
  }                                                                            \
  void __tsan_unaligned_write##N(void *a) {                                    \
    PKEMU_CHECK(a, N, true, PKEMU_RA)                                          \
  }                                                                            \
  void __tsan_read##N##_pc(void *a, void *pc) { PKEMU_CHECK(a, N, false, pc) } \
  void __tsan_write##N##_pc(void *a, void *pc) { PKEMU_CHECK(a, N, true, pc) } \
  void __tsan_volatile_read##N(void *a) {                                      \
    volatile_tick(a, N, PKEMU_RA);                                             \
    PKEMU_CHECK(a, N, false, PKEMU_RA)                                         \
  }                                                                            \
  void __tsan_volatile_write##N(void *a) {                                     \
    volatile_tick(a, N, PKEMU_RA);                                             \
    PKEMU_CHECK(a, N, true, PKEMU_RA)                                          \
  }                                                                            \
  void __tsan_unaligned_volatile_read##N(void *a) {                            \
    volatile_tick(a, N, PKEMU_RA);                                             \
    PKEMU_CHECK(a, N, false, PKEMU_RA)                                         \
  }                                                                            \
  void __tsan_unaligned_volatile_write##N(void *a) {                           \
    volatile_tick(a, N, PKEMU_RA);                                             \
    PKEMU_CHECK(a, N, true, PKEMU_RA)                                          \
  }

PKEMU_HOOK(1)
PKEMU_HOOK(2)
PKEMU_HOOK(4)
PKEMU_HOOK(8)
PKEMU_HOOK(16)
#undef PKEMU_HOOK

// Whether every access of n bytes at addresses between a and b (either
// order) lies inside one live device buffer: the memory hooks would find
// nothing there. Called once per loop entry by kernels built with the range
// checks plugin (lib/Emu/ranges); false sends each access to its hook.
bool __pkemu_range_ok(const void *a, const void *b, std::uint64_t n) {
  std::uintptr_t lo = (std::uintptr_t)a, hi = (std::uintptr_t)b;
  if (lo > hi)
    std::swap(lo, hi);
  if (hi - lo > ~std::uintptr_t(0) - n)
    return false;
  std::uintptr_t off = lo - pkemu::detail::pkemu_device_heap.lo;
  if (off >= pkemu::detail::pkemu_device_heap.span)
    return false;
  return !pkemu::detail::device_out_of_bounds(lo, hi - lo + n);
}

// A group of plain reads of n bytes at base + offs[i] (i < count) between
// which nothing can change the shared-memory shadow or switch the fiber (no
// store but to a local, no call: the plugin's read groups,
// lib/Emu/ranges/ReadGroups.cpp); lo and hi are the least and greatest
// offsets. True when every read is one its hook would pass in silence: all
// inside one live device buffer, or all of whole, initialised shared words
// that no other thread wrote since the last barrier -- then each word's cell
// records the read as the hook would have (the group's reads share one
// source location, this call's). False sends each read to its hook, which
// leaves the shadow as without the group.
bool __pkemu_reads_quiet(const char *base, const std::int32_t *offs,
                         std::uint32_t count, std::uint32_t n, std::int64_t lo,
                         std::int64_t hi) {
  using namespace pkemu::detail;
  const std::uintptr_t a = (std::uintptr_t)base + lo,
                       last = (std::uintptr_t)base + hi;
  if (PKEMU_IN_ARENA(a) && PKEMU_IN_ARENA(last + n - 1)) {
    Worker *wp = t_worker;
    if (!wp || !wp->cur || (n & 3) || ((std::uintptr_t)base & 3))
      return false;
    Worker &w = *wp;
    const std::size_t b = (std::uintptr_t)base - (std::uintptr_t)w.arena;
    if (last + n - (std::uintptr_t)w.arena > w.arena_cap)
      return false;
    const std::uint32_t E = w.epoch;
    const std::uint16_t t = (std::uint16_t)pkemu_t_lin;
    // Each word is checked and its cell updated in one pass. A group that
    // fails part way leaves the cells of the words before recorded as this
    // thread's reads; each read then calls its hook, which records the same
    // read again (a read of this thread and epoch refreshes its own entry),
    // so the cells end as the hooks alone would leave them.
    const std::uint32_t stamp = w.warps[w.cur->warp].coll_count;
    const std::int32_t ipc = pc_to_i32(PKEMU_RA);
    for (std::uint32_t i = 0; i < count; ++i) {
      const std::size_t off = b + (std::ptrdiff_t)offs[i];
      if (off & 3)
        return false;
      for (std::size_t k = off; k < off + n; k += 4) {
        std::uint32_t st;
        std::memcpy(&st, w.sstate + k, 4);
        Cell &c = w.wcells[k >> 2];
        if (st != 0x02020202u || (c.w_epoch == E && c.w_tid != t))
          return false;
        record_access<false>(c, E, t, stamp, ipc);
      }
    }
    return true;
  }
  if (a - pkemu_device_heap.lo < pkemu_device_heap.span)
    return __pkemu_range_ok((const void *)a, (const void *)last, n);
  return false;
}

// The reciprocal cache of one division in a kernel (the plugin's fast
// division, lib/Emu/ranges/FastDivision.cpp): key = d | 1 << 32 and
// M = ceil(2^64 / |d|), for |d| >= 2 only (|d| read as unsigned for a
// signed d, so that INT_MIN is 2^31); otherwise the cache is left as it was
// and the division keeps the divide.
void __pkemu_div_prepare(std::uint64_t *cache, std::uint32_t d,
                         bool is_signed) {
  std::uint32_t a = is_signed && (std::int32_t)d < 0 ? 0u - d : d;
  if (a < 2)
    return;
  cache[1] = ~std::uint64_t(0) / a + 1;
  cache[0] = (std::uint64_t)d | (std::uint64_t(1) << 32);
}

static inline bool range_hits(const void *p, std::size_t n) {
  if (!pkemu_t_arena_size || !n)
    return false;
  std::uintptr_t a = (std::uintptr_t)p, lo = pkemu_t_arena_lo,
                 hi = lo + pkemu_t_arena_size;
  return a < hi && a + n > lo;
}
static inline void range_access(const void *p, std::size_t n, bool write,
                                void *pc) {
  std::uintptr_t a = (std::uintptr_t)p, lo = pkemu_t_arena_lo,
                 hi = lo + pkemu_t_arena_size;
  std::uintptr_t s = a < lo ? lo : a, e = a + n > hi ? hi : a + n;
  pkemu::detail::shared_access(s, e - s, write, pc);
}
// A range that starts in the device range and does not fit its buffer.
static inline bool dev_range_bad(const void *p, std::size_t n) {
  return n && pkemu::detail::device_out_of_bounds((std::uintptr_t)p, n);
}
#define PKEMU_RANGE(p, n, W, PC)                                               \
  if (range_hits(p, n))                                                        \
    range_access(p, n, W, PC);                                                 \
  else if (dev_range_bad(p, n))                                                \
    pkemu::detail::device_oob(p, n, W, PC, nullptr);                           \
  else if (pkemu_t_arena_size && n &&                                          \
           (std::uintptr_t)(p) - pkemu::detail::pkemu_device_heap.lo >=        \
               pkemu::detail::pkemu_device_heap.span &&                        \
           !pkemu::detail::private_memory((std::uintptr_t)p))                  \
    pkemu::detail::outside_access(p, n, W, PC);

void __tsan_read_range(void *a, unsigned long n) {
  PKEMU_RANGE(a, n, false, PKEMU_RA)
}
void __tsan_write_range(void *a, unsigned long n) {
  PKEMU_RANGE(a, n, true, PKEMU_RA)
}
void __tsan_read_range_pc(void *a, unsigned long n, void *pc) {
  PKEMU_RANGE(a, n, false, pc)
}
void __tsan_write_range_pc(void *a, unsigned long n, void *pc) {
  PKEMU_RANGE(a, n, true, pc)
}

void *__tsan_memcpy(void *d, const void *s, unsigned long n) {
  PKEMU_RANGE(s, n, false, PKEMU_RA)
  PKEMU_RANGE(d, n, true, PKEMU_RA)
  return std::memcpy(d, s, n);
}
void *__tsan_memmove(void *d, const void *s, unsigned long n) {
  PKEMU_RANGE(s, n, false, PKEMU_RA)
  PKEMU_RANGE(d, n, true, PKEMU_RA)
  return std::memmove(d, s, n);
}
void *__tsan_memset(void *d, int c, unsigned long n) {
  PKEMU_RANGE(d, n, true, PKEMU_RA)
  return std::memset(d, c, n);
}

// The slow path of the hooks a program inlines (pkemu/inline_hooks.h): the
// full check, with this call's return address (in the kernel) as the
// access's location.
__attribute__((noinline)) void pkemu_hook_slow(const void *a, std::size_t n,
                                               bool write) {
  PKEMU_CHECK(a, n, write, PKEMU_RA)
}

void __tsan_init() {}
void __tsan_func_entry(void *) {}
void __tsan_func_exit() {}
void __tsan_vptr_update(void **, void *) {}
void __tsan_vptr_read(void **) {}
void __tsan_ignore_thread_begin() {}
void __tsan_ignore_thread_end() {}
void __tsan_acquire(void *) {}
void __tsan_release(void *) {}
}
