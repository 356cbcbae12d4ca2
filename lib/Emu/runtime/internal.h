//===- internal.h - pkemu runtime internals ---------------------*- C++ -*-===//
// Rules: none (emulator runtime)
//
// Data structures and functions shared by the files of the pkemu runtime (not
// installed, not seen by emulated programs): fibers, warps, the per-worker
// block state, the scheduling primitives that run on every barrier and
// collective (inline, so that the runtime's split into files adds no calls),
// and the declarations each file provides to the others.
//
//===----------------------------------------------------------------------===//
#pragma once
#include <algorithm>
#include <atomic>
#include <boost/context/detail/fcontext.hpp>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "pkemu/runtime.h"

namespace pkemu {
namespace detail {

namespace bctx = boost::context::detail;

// Monotonic time in nanoseconds (launch start and statistics, the watchdog,
// events).
inline std::uint64_t now_ns() {
  return (std::uint64_t)std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// Context switching. On x86-64 a minimal switch (callee-saved registers only,
// the FP control state is shared by all fibers of a worker) is used; elsewhere
// Boost.Context's fcontext.
#if defined(__x86_64__) && !defined(PKEMU_USE_BOOST_CONTEXT)
#define PKEMU_FAST_SWITCH 1
extern "C" void pkemu_swap_ctx(void **save, void *to);
extern "C" void pkemu_fiber_trampoline();
#endif

enum FiberState : std::uint8_t {
  kReady = 0,
  kAtBarrier = 1,
  kAtColl = 2,
  kExited = 3
};

// One cache line per fiber: everything a switch, a barrier or a collective
// touches. The per-lane operands and results of warp collectives live in the
// Warp (structure of arrays), so completing a collective walks contiguous
// arrays instead of 32-64 Fiber objects.
struct alignas(64) Fiber {
  void *ctx = nullptr; // saved context (stack pointer / fcontext)
  uint3 tid{};
  std::uint32_t lin = 0;
  std::uint32_t lane = 0, warp = 0;
  const char *wfile = nullptr; // where the thread waits (barrier or collective)
  const char *cname = nullptr; // collective it waits in
  int wline = 0;
  std::uint8_t bar_kind = 0;
  std::uint8_t state =
      kReady; // set when the fiber blocks, reset by the fiber when it resumes
  char *stack = nullptr; // lowest usable address (a guard page lies below)
};
static_assert(sizeof(Fiber) == 64, "Fiber should fill exactly one cache line");

struct Pending {
  std::uint64_t mask = 0, arrived = 0;
  std::uint64_t key = 0; // mask for *_sync forms, 0 for the non-sync form
  std::uint32_t kind = 0;
  CollFn fn = nullptr;
  const char *name = nullptr;
  const char *file = nullptr;
  int line = 0;
  bool live_form = false; // non-sync form: mask tracks the live lanes
};

struct Warp {
  // Per-lane collective operands and results (lane-indexed).
  alignas(64) std::uint64_t cval[64] = {};
  std::uint64_t cres[64] = {};
  std::int64_t carg[64] = {};
  int cwidth[64] = {};
  void *cpayload[64] = {};
  Fiber *lanes[64] = {};
  std::uint64_t exists = 0, exited = 0;
  std::uint32_t coll_count = 0; // completed collectives (monotonic per worker)
  std::uint32_t last_full =
      0; // last collective in which every lane of the warp took part
  std::vector<std::uint32_t>
      pair; // [64*64] last collective shared by lanes a and b
  // Collectives in flight. Each holds at least one arrived lane and a lane
  // waits in at most one, so a warp never has more than one per lane.
  Pending slots[64];
  int nslots = 0;
};

// Race-detection shadow for one byte of shared memory.
// The state bit of a word whose race shadow is per byte (hooks.cpp).
constexpr std::uint8_t kSplitWord = 0x80;

struct Cell {
  std::uint32_t w_epoch, w_stamp;
  std::int32_t w_pc;
  std::uint16_t w_tid, r1_tid;
  std::uint32_t r_epoch, r1_stamp;
  std::int32_t r1_pc;
  std::uint16_t r2_tid, pad;
  std::uint32_t r2_stamp;
  std::int32_t r2_pc;
};

struct LaunchCtx {
  LaunchArgs a;
  std::uint64_t nblocks = 0;
  // How many blocks the emulated device holds at once (multiprocessors x
  // blocks per multiprocessor).
  std::uint64_t max_resident = 1;
  std::uint32_t nthreads = 0;
  int W = 32;
  std::atomic<std::uint64_t> start_ns{0};
  // The counters every worker updates per block, each on a line of its own
  // (and away from the fields above, which every claim reads): the next
  // block, the blocks started and not finished (resident), and the blocks
  // that finished (release: after everything they wrote).
  alignas(64) std::atomic<std::uint64_t> next{0};
  alignas(64) std::atomic<std::uint64_t> resident{0};
  alignas(64) std::atomic<std::uint64_t> finished{0};
  // grid_group::sync: blocks arrived at the current grid barrier, and its
  // generation (incremented by the last block to arrive).
  std::atomic<std::uint64_t> grid_arrived{0}, grid_gen{0};
  // A worker saw pkemu_t_effects set (replay.cpp).
  std::atomic<bool> effects{false};
  // A device assert failed: no further block starts.
  std::atomic<bool> stopped{false};
};

struct DeclSlot {
  const SharedDecl *d;
  std::size_t off;
};

struct Worker {
  int id = 0;
  Fiber sched; // receives the scheduler's (OS thread's) context when a block
               // starts
  Fiber sink;  // absorbs the context of fibers that exit
  Fiber *cur = nullptr;
  std::atomic<Fiber *> cur_pub{nullptr};
  std::atomic<std::int64_t> block_pub{-1};
  const LaunchCtx *L = nullptr;
  uint3 bidx{};
  std::vector<Fiber> fibers;
  std::vector<Fiber *> fiber_ptrs; // &fibers[i], for queueing ranges of threads
  std::vector<Warp> warps;
  std::uint32_t nthreads = 0, nexited = 0, nwarps = 0;
  int W = 32;
  // ready queue
  std::vector<Fiber *> rq;
  std::uint32_t rq_head = 0, rq_tail = 0, rq_mask = 0;
  // barrier
  std::uint32_t bar_count = 0, bar_acc = 0;
  int bar_kind = 0, bar_result = 0;
  const char *bar_file = nullptr;
  int bar_line = 0;
  bool bar_mismatch = false;
  std::uint32_t epoch = 0;
  // stacks
  std::vector<char *> stacks;
  std::size_t stack_bytes = 0;
  // shared arena
  char *arena = nullptr;
  std::size_t arena_cap = 0;
  // Per byte: 0 undeclared, 1 declared/uninitialised, 2 initialised, plus
  // kSplitWord in the four bytes of a word whose shadow is per byte.
  std::uint8_t *sstate = nullptr;
  Cell *wcells = nullptr;   // race shadow per 4-byte word
  Cell *cells = nullptr;    // race shadow per byte (words split)
  std::size_t split_hi = 0; // end of the highest word split in this block
  std::size_t hwm = 0, static_top = 0, dyn_size = 0, static_bytes = 0;
  std::vector<DeclSlot> decls;
  bool aborting = false;
  // Cooperative scheduling of resident blocks: a block whose threads keep
  // reaching spin points (atomics, volatile accesses, fences, __nanosleep)
  // is suspended every kSpinYields yields so that its worker thread can run
  // or start another block it may wait for.
  bool suspended = false;
  std::uint32_t spin_yields = 0;
  std::atomic<void *> spin_pc{nullptr}; // the spin point that suspended it
  std::atomic<bool> spin_pub{false};    // suspended at a spin point (watchdog)
  // The blocks this worker thread holds besides its own (one Worker each).
  std::vector<Worker *> extra;
  // Deadlock detection. The block's last suspension (spin point, the
  // location polled and its value), how many suspensions in a row were the
  // same, and how many suspensions in all.
  void *last_spin_pc = nullptr;
  const void *last_spin_addr = nullptr;
  std::uint64_t last_spin_val = 0;
  std::atomic<std::uint32_t> spin_same{0};
  std::atomic<std::uint64_t> spin_suspends{0};
  // Blocks this worker thread started or finished (written by it alone; the
  // watchdog adds them to g_progress).
  std::atomic<std::uint64_t> progress{0};
  // The OS thread that runs the block (sampled by the watchdog).
  std::atomic<unsigned long> os_thread{0};
  // Watchdog-private: suspensions seen at the start of a quiet period, and
  // the last register sample of a thread that does not yield.
  std::uint64_t wd_suspends = 0;
  const Fiber *wd_fiber = nullptr;
  std::uint64_t wd_regs[49] = {}; // r8..rip, xmm0..xmm15 (workers.cpp)
  std::uint64_t wd_sample_suspends = 0;
  int wd_same = 0;
};
constexpr std::uint32_t kSpinYields = 64;

extern PKEMU_TLS Worker *t_worker;

// Configuration (environment), fixed at the first launch.
struct Config {
  int warp = 32;
  double timeout_s = 20;
  std::size_t stack_kb = 64;
  int workers = 2;
};
const Config &config();

// Reports.
struct Report {
  std::string kind;
  const void *kernel = nullptr;
  std::string text; // may contain {pc0} and {pc1}
  void *pcs[2] = {nullptr, nullptr};
  std::string file; // for reports with a source location from __builtin_FILE
  int line = 0;
};
void add_report(Report r);

// Device buffers (device_memory.cpp).
struct DeviceSlot {
  enum State : std::uint8_t { kUnused, kLive, kFreed };
  std::size_t size = 0, mapped = 0;
  void *pc = nullptr;       // where it was allocated
  std::uint64_t serial = 0; // 1 for the program's first device buffer
  State state = kUnused;
  // A __device__/__constant__ variable's buffer: its name and definition.
  const char *var = nullptr, *file = nullptr;
  int line = 0;
};
// A checked buffer of n bytes, or nullptr (the caller then uses the C heap).
void *device_alloc(std::size_t n, void *pc);
// 1: p was a live checked buffer and is freed; 0: not in the checked range;
// -1: in the range but not the start of a live buffer.
int device_release(void *p);
// The buffer that an access at a belongs to or is nearest to, and the
// access's offset from its start; false outside the checked range.
bool device_find(std::uintptr_t a, std::size_t n, DeviceSlot &out,
                 std::int64_t &rel);
// An access of n bytes at a that is outside every live device buffer (the
// fast test, then the buffers of more than 2 GiB it cannot see).
bool device_range_bad(std::uintptr_t a, std::size_t n);
// Makes the pages of an out-of-bounds access usable so the program continues.
void device_open_pages(std::uintptr_t a, std::size_t n);
// Memory a kernel may access that the hooks' fast tests do not cover (pinned
// and registered host memory, thread-local storage, the stacks of the threads
// that launch kernels, shared libraries' data, memory kernels allocate): the
// range holding [a, a + n), or false.
bool memory_allowed(std::uintptr_t a, std::size_t n, std::uintptr_t &lo,
                    std::uintptr_t &size);
// Whether [a, a + n) lies in a read-only segment of the program's image.
bool image_read_only(std::uintptr_t a, std::size_t n);
// The device memory a launch may read: every live device buffer (its start
// and size as allocated) and the __device__ variables kept in their original
// storage, in a fixed order (replay.cpp).
struct Region {
  std::uintptr_t addr;
  std::size_t size;
};
void device_regions(std::vector<Region> &out);
// The memory map: the program's image, this thread's stack and static TLS
// (the launching thread and every worker thread call it once).
void memory_map_thread();
// n bytes of fiber stack from the reserved stack range (or mmap).
char *stack_alloc(std::size_t n);
// Pinned or registered host memory: in the map while it is allocated.
void host_range_add(void *p, std::size_t n);
void host_range_remove(void *p);
// malloc/free (device_memory.cpp): record what kernels allocate.
void kernel_alloc(void *p, std::size_t n);
void kernel_free(void *p);
void flush_reports();        // symbolize and print what is pending
[[noreturn]] void die_now(); // flush reports, stdio, _exit(86)
bool any_error();
// How many reports were made since the start (duplicates included).
std::uint64_t report_count();
std::string symbolize_function(const void *fn);
std::string describe_threads(const std::vector<std::uint32_t> &lins);
std::string block_str(uint3 b);
// Code addresses kept in 32 bits: the distance from pc_anchor (report.cpp).
void pc_anchor();
inline std::int32_t pc_to_i32(void *pc) {
  std::intptr_t d = (std::intptr_t)pc - (std::intptr_t)&pc_anchor;
  if (!pc || d < INT32_MIN + 1 || d > INT32_MAX)
    return 0;
  return (std::int32_t)d;
}
inline void *i32_to_pc(std::int32_t v) {
  return v ? (void *)((std::intptr_t)&pc_anchor + v) : nullptr;
}

std::string loc(const char *file, int line); // "file:line", or "?"
std::string hex64(std::uint64_t v);
// Linear thread ids of the lanes of `m` in warp `wp`.
std::vector<std::uint32_t> lanes_to_lins(const Warp &wp, std::uint64_t m);

// Current launch, for the watchdog. g_workers (every Worker, those of
// resident blocks included) is guarded by g_workers_mu.
extern std::atomic<LaunchCtx *> g_active_launch;
// Progress of the active launch: blocks started or finished, suspensions that
// differ from the block's previous one.
extern std::atomic<std::uint64_t> g_progress;
extern std::vector<Worker *> &g_workers;
extern std::mutex &g_workers_mu;

// ---------------------------------------------------------------------------------------------
// What each file of the runtime provides to the others.

// fibers.cpp: blocks and their fibers.
void prepare_launch(Worker &w,
                    const LaunchCtx &L); // size the worker for a launch
// Start block b on w and run it until it finishes (true) or is suspended at
// a spin point (false; resume_block continues it).
bool start_block(Worker &w, const LaunchCtx &L, std::uint64_t b);
bool resume_block(Worker &w);
// A spin point (at pc): yield, and suspend the block every kSpinYields.
void spin_yield(void *pc);
[[noreturn]] void exit_current_thread(); // the running thread stops here
void abort_current(); // abort the current block (if any) after a fatal report
// Record a report and abort the block.
[[noreturn]] __attribute__((noinline, cold)) void
fatal_here(Worker &w, const char *kind, std::string text, const char *file,
           int line);
// Every fiber of the block is blocked or exited: explain why and abort the
// block.
[[noreturn]] __attribute__((noinline, cold)) void stuck(Worker &w);
// The initial context of a fiber that has not started (its ctx is null): made
// when something first switches to it, on its own stack. A fiber that a
// finished one adopts (fiber_main) never needs one.
__attribute__((noinline)) void *start_ctx(Worker &w, Fiber *f);
static inline void *ctx_of(Worker &w, Fiber *f) {
  return __builtin_expect(f->ctx != nullptr, 1) ? f->ctx : start_ctx(w, f);
}
// barriers.cpp
const char *barrier_name(int kind);
// collectives.cpp
// Complete pending non-sync collectives whose missing lanes all wait at a
// barrier (they diverged); returns whether fibers became ready.
__attribute__((noinline, cold)) bool complete_divergent(Worker &w);
// A lane exited: complete the non-sync collectives that now have every live
// lane.
void on_lane_exit_pending(Worker &w, Warp &wp, Fiber *self);
// A lane exited: pending non-sync collectives of its warp may now be
// complete, sync ones are broken. Inline: most warps have none.
inline void on_lane_exit(Worker &w, Fiber *self) {
  Warp &wp = w.warps[self->warp];
  wp.exited |= 1ull << self->lane;
  if (__builtin_expect(wp.nslots != 0, 0))
    on_lane_exit_pending(w, wp, self);
}
// shared_memory.cpp
void setup_worker_arena(Worker &w);
void reset_arena(Worker &w, std::size_t dyn); // start of a block with `dyn`
                                              // bytes of dynamic shared memory
// workers.cpp
void run_launch(const LaunchArgs &a,
                std::uint32_t nthreads); // after api.cpp validated the launch
// replay.cpp: a launch that repeats an earlier one exactly. replay_before
// answers true when it wrote what the earlier run wrote (the launch is
// done); otherwise the launch runs and replay_after learns its outcome.
struct ReplayTicket {
  void *entry = nullptr;
  std::vector<Region> regions;
  std::vector<std::uint64_t> pre; // hash per region, when hashed
  bool hashed = false;
};
bool replay_before(const LaunchArgs &a, int warp, ReplayTicket &t);
void replay_after(ReplayTicket &t, bool effects, bool reported,
                  std::uint64_t ns);
// Launches replayed so far.
std::uint64_t replayed_launches();
// Whether every translation unit was built with the Effects pass.
bool effects_marked();

// ---------------------------------------------------------------------------------------------
// Scheduling primitives. They run on every barrier, collective and yield; they
// are inline here (internal linkage, as when the runtime was one file) so that
// no call is added on those paths.

// Save the running context into *save and resume context `to`.
#ifdef PKEMU_FAST_SWITCH
static inline void ctx_switch(void **save, void *to) {
  pkemu_swap_ctx(save, to);
}
#else
static inline void ctx_switch(void **save, void *to) {
  bctx::transfer_t t =
      bctx::jump_fcontext(static_cast<bctx::fcontext_t>(to), save);
  *static_cast<void **>(t.data) = t.fctx;
}
#endif

// Ready queue: a ring of runnable fibers (capacity a power of two above the
// block size).
static inline void rq_push(Worker &w, Fiber *f) {
  w.rq[w.rq_tail & w.rq_mask] = f;
  ++w.rq_tail;
}
static inline Fiber *rq_pop(Worker &w) {
  if (w.rq_head == w.rq_tail)
    return nullptr;
  Fiber *f = w.rq[w.rq_head & w.rq_mask];
  ++w.rq_head;
  return f;
}

// Append n fiber pointers to the ring.
static inline void rq_push_n(Worker &w, Fiber *const *src, std::uint32_t n) {
  Fiber **rq = w.rq.data();
  const std::uint32_t cap = w.rq_mask + 1, t = w.rq_tail & w.rq_mask;
  const std::uint32_t first = std::min(n, cap - t);
  std::memcpy(rq + t, src, first * sizeof(Fiber *));
  std::memcpy(rq, src + first, (n - first) * sizeof(Fiber *));
  w.rq_tail += n;
}

// Make `f` the running fiber: its ids become the built-in variables and
// thread-locals.
static inline void set_cur(Worker &w, Fiber *f) {
  w.cur = f;
  w.cur_pub.store(f, std::memory_order_relaxed);
  threadIdx = f->tid;
  pkemu_t_lin = f->lin;
  pkemu_t_lane = f->lane;
  pkemu_t_atomics = 0;
}

// Switch away from `self` (already queued or blocked) to the next runnable
// fiber. With hundreds of fibers per block, their stacks and Fiber lines do not
// stay in L1: while switching to `next`, prefetch the saved frames of the fiber
// after it and the Fiber line of the one after that, so that those misses
// overlap with running `next`. kQueued: `self` may be in the ring itself
// (yield); otherwise it is blocked and cannot be.
template <bool kQueued = true>
static inline void switch_from(Worker &w, Fiber *self) {
  std::uint32_t h = w.rq_head;
  if (__builtin_expect(h == w.rq_tail, 0) && !complete_divergent(w))
    stuck(w);
  const std::uint32_t t = w.rq_tail;
  Fiber *next = w.rq[h & w.rq_mask];
  w.rq_head = ++h;
  if (kQueued && next == self)
    return;
  if (h != t) {
    Fiber *const *rq = w.rq.data();
    const char *sp = static_cast<const char *>(rq[h & w.rq_mask]->ctx);
    __builtin_prefetch(sp);
    __builtin_prefetch(sp + 64);
    __builtin_prefetch(sp + 128);
    if (h + 1 != t)
      __builtin_prefetch(rq[(h + 1) & w.rq_mask]);
  }
  set_cur(w, next);
  ctx_switch(&self->ctx, ctx_of(w, next));
}

} // namespace detail
} // namespace pkemu
