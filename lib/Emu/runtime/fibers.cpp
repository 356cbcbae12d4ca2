//===- fibers.cpp - fibers, context switches, block scheduling ------------===//
// Rules: none (emulator runtime)
//
// Every GPU thread of a block is a fiber on the worker thread that runs the
// block. This file holds the built-in variables, the context switch, fiber
// stacks, the start, suspension and end of a block, yields, and the report for
// a block in which no fiber can run. The ready-queue primitives that barriers
// and warp collectives use on every switch are inline in internal.h.
//
//===----------------------------------------------------------------------===//
#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <ctime>

#include "internal.h"

// ---------------------------------------------------------------------------------------------
// Built-in variables and hot thread-locals.
extern "C" {
int warpSize = 32;
PKEMU_TLS uint3 threadIdx;
PKEMU_TLS uint3 blockIdx;
PKEMU_TLS dim3 blockDim;
PKEMU_TLS dim3 gridDim;
}

namespace pkemu {
namespace detail {
extern "C" {
PKEMU_TLS std::uintptr_t pkemu_t_arena_lo = 0;
PKEMU_TLS std::uintptr_t pkemu_t_arena_size = 0;
PKEMU_TLS char *pkemu_t_dyn_base = nullptr;
PKEMU_TLS unsigned pkemu_t_lin = 0;
PKEMU_TLS unsigned pkemu_t_lane = 0;
PKEMU_TLS unsigned pkemu_t_atomics = 0;
PKEMU_TLS unsigned char pkemu_t_effects = 0;
int __pkemu_effects_pass_ran(void) { return 0; }
// clock() as the plugin's Effects pass calls it: in a kernel, the device's
// cycle counter at the clockRate the emulated device reports (1 GHz, so
// nanoseconds of a monotonic clock); elsewhere the C library's.
long pkemu_clock(void) {
  if (pkemu_t_arena_size != 0)
    return (long)now_ns();
  return (long)::clock();
}
PKEMU_TLS const void *pkemu_t_spin_addr = nullptr;
PKEMU_TLS unsigned pkemu_t_spin_size = 0;
}

PKEMU_TLS Worker *t_worker = nullptr;

// ---------------------------------------------------------------------------------------------
// Context switch primitives.
static void fiber_main();
#ifdef PKEMU_FAST_SWITCH
asm(R"(
  .text
  .globl pkemu_swap_ctx
  .type pkemu_swap_ctx,@function
  .p2align 4
pkemu_swap_ctx:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .size pkemu_swap_ctx, .-pkemu_swap_ctx
  .globl pkemu_fiber_trampoline
  .type pkemu_fiber_trampoline,@function
  .p2align 4
pkemu_fiber_trampoline:
  xorl %ebp, %ebp
  callq *%r13
  ud2
  .size pkemu_fiber_trampoline, .-pkemu_fiber_trampoline
)");
// Initial context of a fiber whose stack ends at `top`: the switch routine
// "returns" into the trampoline, which calls fiber_main.
static void *ctx_make(char *top) {
  // [r15 r14 r13=entry r12 rbx rbp ret=trampoline]; after `ret`, rsp is 16-byte
  // aligned.
  void **sp = reinterpret_cast<void **>(top - 72);
  sp[0] = nullptr;
  sp[1] = nullptr;
  sp[2] = reinterpret_cast<void *>(&fiber_main);
  sp[3] = nullptr;
  sp[4] = nullptr;
  sp[5] = nullptr;
  sp[6] = reinterpret_cast<void *>(&pkemu_fiber_trampoline);
  return sp;
}
#else
static void boost_entry(bctx::transfer_t t) {
  *static_cast<void **>(t.data) = t.fctx;
  fiber_main();
}
static void *ctx_make(char *top) {
  return bctx::make_fcontext(top, 64 * 1024, boost_entry);
}
#endif

// ---------------------------------------------------------------------------------------------
// Aborting a block, and the report when no fiber of a block can run.
[[noreturn]] static void abort_block(Worker &w) {
  w.aborting = true;
  ctx_switch(&w.sink.ctx, w.sched.ctx);
  __builtin_unreachable();
}

void abort_current() {
  Worker *w = t_worker;
  if (w && w->cur)
    abort_block(*w);
}

[[noreturn]] void fatal_here(Worker &w, const char *kind, std::string text,
                             const char *file, int line) {
  Report r;
  r.kind = kind;
  r.kernel = w.L ? w.L->a.fn : nullptr;
  r.text = std::move(text);
  r.file = file ? file : "";
  r.line = line;
  add_report(std::move(r));
  abort_block(w);
}

// Everyone is blocked (or exited) and nobody can run: explain and abort the
// launch.
[[noreturn]] void stuck(Worker &w) {
  std::vector<std::uint32_t> exited;
  struct Group {
    const char *file;
    int line;
    const char *name;
    bool barrier;
    std::vector<std::uint32_t> lins;
  };
  std::vector<Group> groups;
  for (std::uint32_t i = 0; i < w.nthreads; ++i) {
    Fiber &f = w.fibers[i];
    if (f.state == kExited) {
      exited.push_back(f.lin);
      continue;
    }
    bool bar = f.state == kAtBarrier;
    const char *name = bar ? barrier_name(f.bar_kind) : f.cname;
    Group *g = nullptr;
    for (auto &x : groups)
      if (x.barrier == bar && x.line == f.wline && x.name == name &&
          (x.file == f.wfile ||
           (x.file && f.wfile && !std::strcmp(x.file, f.wfile))))
        g = &x;
    if (!g) {
      groups.push_back(Group{f.wfile, f.wline, name, bar, {}});
      g = &groups.back();
    }
    g->lins.push_back(f.lin);
  }
  bool any_bar = false;
  for (auto &g : groups)
    any_bar |= g.barrier;
  std::string text;
  const char *kind;
  const char *file = nullptr;
  int line = 0;
  if (any_bar) {
    kind = "barrier divergence";
    text = "barrier reached by only part of block " + block_str(w.bidx) + ": ";
  } else {
    kind = "warp collective with inconsistent participation";
    text = "deadlock in block " + block_str(w.bidx) + ": ";
  }
  bool first = true;
  for (auto &g : groups) {
    if (!file && (g.barrier || !any_bar)) {
      file = g.file;
      line = g.line;
    }
    if (!first)
      text += "; ";
    first = false;
    text += describe_threads(g.lins) + " waiting at " +
            (g.name ? g.name : "?") + " (" + loc(g.file, g.line) + ")";
  }
  if (!exited.empty())
    text += "; " + describe_threads(exited) + " exited";
  if (!any_bar)
    text += "; the collective can never complete";
  fatal_here(w, kind, text, file, line);
}

// Back to the worker thread's block scheduler (workers.cpp), which resumes
// this block later, after running or starting others.
static void suspend_block(Worker &w, Fiber *self, void *pc) {
  // Deadlock detection (the watchdog): is this suspension the same as the
  // block's previous one (same spin point polling the same location, which
  // still holds the same value)? Anything else is progress.
  const void *a = pkemu_t_spin_addr;
  unsigned n = pkemu_t_spin_size;
  std::uint64_t v = 0;
  if (a && n <= sizeof v)
    std::memcpy(&v, a, n);
  if (pc == w.last_spin_pc && a == w.last_spin_addr && v == w.last_spin_val) {
    w.spin_same.store(w.spin_same.load(std::memory_order_relaxed) + 1,
                      std::memory_order_relaxed);
  } else {
    w.spin_same.store(0, std::memory_order_relaxed);
    g_progress.fetch_add(1, std::memory_order_relaxed);
  }
  w.last_spin_pc = pc;
  w.last_spin_addr = a;
  w.last_spin_val = v;
  w.spin_suspends.fetch_add(1, std::memory_order_relaxed);
  w.spin_pc.store(pc, std::memory_order_relaxed);
  w.suspended = true;
  w.spin_pub.store(true, std::memory_order_relaxed);
  ctx_switch(&self->ctx, w.sched.ctx);
  // resume_block restored the thread's built-in variables.
}

void spin_yield(void *pc) {
  Worker *w = t_worker;
  pkemu_t_atomics = 0;
  if (!w || !w->cur)
    return;
  Fiber *self = w->cur;
  if (++w->spin_yields >= kSpinYields) {
    w->spin_yields = 0;
    suspend_block(*w, self, pc);
    return;
  }
  rq_push(*w, self);
  switch_from(*w, self);
}

void yield() { spin_yield(__builtin_return_address(0)); }

void shared_epoch_advance() {
  if (Worker *w = t_worker)
    if (w->cur)
      ++w->epoch;
}

// ---------------------------------------------------------------------------------------------
// Fibers and blocks.
static char *get_stack(Worker &w, std::size_t i) {
  while (w.stacks.size() <= i) {
    long pg = sysconf(_SC_PAGESIZE);
    // From the reserved stack range, which the memory hooks know.
    void *p = stack_alloc(w.stack_bytes + pg);
    if (!p) {
      std::fprintf(stderr, "pkemu: error: cannot allocate fiber stacks\n");
      die_now();
    }
    mprotect(p, pg, PROT_NONE); // guard page
    w.stacks.push_back(static_cast<char *>(p));
  }
  return w.stacks[i];
}

// The body of every fiber. A thread that ends hands the stack it ran on to
// the next runnable thread if that one has not started yet: it runs here
// without a context switch and without touching a stack of its own (a block
// of threads that never wait runs them one after the other on one stack).
// Only a thread that has started (it waits in a barrier or a collective) is
// switched to.
// A thread that has exited: the block's last one returns to the scheduler;
// otherwise the next runnable thread becomes the current one (returned, not
// yet switched to).
static inline Fiber *retire(Worker &w, Fiber *self) {
  self->state = kExited;
  ++w.nexited;
  on_lane_exit(w, self);
  if (w.nexited == w.nthreads) {
    ctx_switch(&w.sink.ctx, w.sched.ctx);
    __builtin_unreachable();
  }
  Fiber *next = rq_pop(w);
  if (!next && complete_divergent(w))
    next = rq_pop(w);
  if (!next)
    stuck(w);
  set_cur(w, next);
  return next;
}

static void fiber_main() {
  Worker &w = *t_worker;
  for (;;) {
    Fiber *self = w.cur;
    try {
      w.L->a.thunk(w.L->a.pack);
    } catch (...) {
      fatal_here(w, "exception",
                 "a C++ exception escaped the kernel in thread " +
                     std::to_string(self->lin) + " of block " +
                     block_str(w.bidx),
                 nullptr, 0);
    }
    Fiber *next = retire(w, self);
    if (!next->ctx)
      continue; // adopted: it starts on this stack
    ctx_switch(&w.sink.ctx, next->ctx);
    __builtin_unreachable();
  }
}

// A thread that stops where it is (a failed device assert): it exits as if
// its kernel had returned, and its stack is left as it is (the next block
// starts every thread afresh). The next thread runs on its own stack.
[[noreturn]] void exit_current_thread() {
  Worker &w = *t_worker;
  Fiber *next = retire(w, w.cur);
  ctx_switch(&w.sink.ctx, next->ctx ? next->ctx : start_ctx(w, next));
  __builtin_unreachable();
}

void *start_ctx(Worker &w, Fiber *f) {
  // Stagger stack tops so that the hot frames of different fibers use
  // different cache sets.
  char *top = f->stack + w.stack_bytes - ((f->lin & 63) * 64);
  f->ctx = ctx_make(top);
  return f->ctx;
}

void prepare_launch(Worker &w, const LaunchCtx &L) {
  setup_worker_arena(w);
  w.L = &L;
  w.W = L.W;
  w.nthreads = L.nthreads;
  w.nwarps = (L.nthreads + L.W - 1) / L.W;
  w.stack_bytes = config().stack_kb * 1024;
  if (w.fibers.size() < L.nthreads)
    w.fibers.resize(L.nthreads);
  if (w.warps.size() < w.nwarps)
    w.warps.resize(w.nwarps);
  std::uint32_t cap = 1;
  while (cap < L.nthreads + 1)
    cap <<= 1;
  if (w.rq.size() < cap)
    w.rq.resize(cap);
  w.rq_mask = (std::uint32_t)w.rq.size() - 1;
  const dim3 b = L.a.block;
  long pg = sysconf(_SC_PAGESIZE);
  w.fiber_ptrs.resize(w.fibers.size());
  for (std::uint32_t i = 0; i < L.nthreads; ++i) {
    Fiber &f = w.fibers[i];
    w.fiber_ptrs[i] = &f;
    f.lin = i;
    f.tid = uint3{i % b.x, (i / b.x) % b.y, i / (b.x * b.y)};
    f.lane = i % L.W;
    f.warp = i / L.W;
    f.stack = get_stack(w, i) + pg;
  }
  for (std::uint32_t k = 0; k < w.nwarps; ++k) {
    Warp &wp = w.warps[k];
    std::memset(wp.lanes, 0, sizeof wp.lanes);
    std::uint32_t lo = k * L.W,
                  hi = std::min<std::uint32_t>(lo + L.W, L.nthreads);
    wp.exists = 0;
    for (std::uint32_t i = lo; i < hi; ++i) {
      wp.lanes[i - lo] = &w.fibers[i];
      wp.exists |= 1ull << (i - lo);
    }
  }
  blockDim = L.a.block;
  gridDim = L.a.grid;
}

// Runs the block of w from its current fiber until the block finishes (true)
// or is suspended (false). The thread-locals the program and the hooks read
// (t_worker, the built-in variables, the shared-memory arena) are the block's
// while it runs.
static bool enter_block(Worker &w) {
  Worker *host = t_worker;
  t_worker = &w;
  blockIdx = w.bidx;
  blockDim = w.L->a.block;
  gridDim = w.L->a.grid;
  pkemu_t_arena_lo = (std::uintptr_t)w.arena;
  pkemu_t_arena_size = w.arena_cap;
  pkemu_t_dyn_base = w.arena;
  pkemu_t_ok_size = 0; // the memory map may have changed
  w.suspended = false;
  w.spin_pub.store(false, std::memory_order_relaxed);
  w.os_thread.store((unsigned long)pthread_self(), std::memory_order_relaxed);
  Fiber *f = w.cur;
  set_cur(w, f);
  ctx_switch(&w.sched.ctx, ctx_of(w, f));
  pkemu_t_arena_size = 0;
  t_worker = host;
  if (w.aborting)
    die_now();
  if (w.suspended)
    return false;
  w.cur = nullptr;
  w.cur_pub.store(nullptr, std::memory_order_relaxed);
  w.block_pub.store(-1, std::memory_order_relaxed);
  return true;
}

bool start_block(Worker &w, const LaunchCtx &L, std::uint64_t b) {
  const dim3 g = L.a.grid;
  w.bidx = uint3{(unsigned)(b % g.x), (unsigned)((b / g.x) % g.y),
                 (unsigned)(b / ((std::uint64_t)g.x * g.y))};
  w.block_pub.store((std::int64_t)b, std::memory_order_relaxed);
  reset_arena(w, L.a.shmem);
  ++w.epoch;
  w.nexited = 0;
  w.bar_count = 0;
  w.rq_head = w.rq_tail = 0;
  w.spin_yields = 0;
  w.spin_pc.store(nullptr, std::memory_order_relaxed);
  w.last_spin_pc = nullptr;
  w.last_spin_addr = nullptr;
  w.spin_same.store(0, std::memory_order_relaxed);
  for (std::uint32_t k = 0; k < w.nwarps; ++k) {
    w.warps[k].exited = 0;
    w.warps[k].nslots = 0;
  }
  for (std::uint32_t i = 0; i < L.nthreads; ++i) {
    Fiber &f = w.fibers[i];
    f.state = kReady;
    f.ctx = nullptr; // not started (start_ctx, or adopted in fiber_main)
    if (i)
      rq_push(w, &f);
  }
  w.aborting = false;
  w.cur = &w.fibers[0];
  return enter_block(w);
}

bool resume_block(Worker &w) { return enter_block(w); }

} // namespace detail
} // namespace pkemu
