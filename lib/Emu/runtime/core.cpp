// pkemu core: fibers, block scheduling, barriers, warp collectives, shared memory, launches.
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <thread>

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
PKEMU_TLS char* pkemu_t_dyn_base = nullptr;
PKEMU_TLS unsigned pkemu_t_lin = 0;
PKEMU_TLS unsigned pkemu_t_lane = 0;
PKEMU_TLS unsigned pkemu_t_atomics = 0;
}

PKEMU_TLS Worker* t_worker = nullptr;
std::atomic<LaunchCtx*> g_active_launch{nullptr};
std::vector<Worker*>& g_workers = *new std::vector<Worker*>;

namespace {

constexpr std::size_t kArenaCap = 512 * 1024;   // bytes of shared memory per block (max)
constexpr std::size_t kRedzone = 64;
constexpr std::size_t kStaticLimit = 48 * 1024;  // static __shared__ per block (CUDA limit)

int g_tu_default_warp = 0;
int g_tu_lang_hip = 0;

Config g_cfg;
std::once_flag g_cfg_once;

void init_config() {
  Config c;
  int dflt = g_tu_default_warp ? g_tu_default_warp : (g_tu_lang_hip ? 64 : 32);
  c.warp = dflt;
  if (const char* e = std::getenv("PKEMU_WARP_SIZE")) {
    int v = std::atoi(e);
    if (v == 32 || v == 64) c.warp = v;
    else std::fprintf(stderr, "pkemu: warning: ignoring PKEMU_WARP_SIZE=%s (must be 32 or 64)\n", e);
  }
  if (const char* e = std::getenv("PKEMU_TIMEOUT_S")) c.timeout_s = std::atof(e);
  if (const char* e = std::getenv("PKEMU_STACK_KB")) {
    long v = std::atol(e);
    if (v >= 16) c.stack_kb = (std::size_t)v;
  }
  unsigned hc = std::thread::hardware_concurrency();
  c.workers = hc ? (int)hc : 2;
  if (const char* e = std::getenv("PKEMU_WORKERS")) {
    int v = std::atoi(e);
    if (v >= 1) c.workers = v;
  }
  g_cfg = c;
  ::warpSize = c.warp;
}

}  // namespace

const Config& config() {
  std::call_once(g_cfg_once, init_config);
  return g_cfg;
}

void register_translation_unit(int default_warp, int lang_hip) {
  if (default_warp == 32 || default_warp == 64) g_tu_default_warp = default_warp;
  if (lang_hip) g_tu_lang_hip = 1;
  // warpSize must be right during static initialisation of the program already.
  int w = g_tu_default_warp ? g_tu_default_warp : (g_tu_lang_hip ? 64 : 32);
  if (const char* e = std::getenv("PKEMU_WARP_SIZE")) {
    int v = std::atoi(e);
    if (v == 32 || v == 64) w = v;
  }
  ::warpSize = w;
}


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
// Switch from `from` (its context is saved into *save) to context `to`.
static inline void ctx_switch(void** save, void* to) { pkemu_swap_ctx(save, to); }
static void* ctx_make(char* top) {
  // [r15 r14 r13=entry r12 rbx rbp ret=trampoline]; after `ret`, rsp is 16-byte aligned.
  void** sp = reinterpret_cast<void**>(top - 72);
  sp[0] = nullptr;
  sp[1] = nullptr;
  sp[2] = reinterpret_cast<void*>(&fiber_main);
  sp[3] = nullptr;
  sp[4] = nullptr;
  sp[5] = nullptr;
  sp[6] = reinterpret_cast<void*>(&pkemu_fiber_trampoline);
  return sp;
}
#else
static void boost_entry(bctx::transfer_t t) {
  *static_cast<void**>(t.data) = t.fctx;
  fiber_main();
}
static inline void ctx_switch(void** save, void* to) {
  bctx::transfer_t t = bctx::jump_fcontext(static_cast<bctx::fcontext_t>(to), save);
  *static_cast<void**>(t.data) = t.fctx;
}
static void* ctx_make(char* top) { return bctx::make_fcontext(top, 64 * 1024, boost_entry); }
#endif

// ---------------------------------------------------------------------------------------------
// Ready queue.
static inline void rq_push(Worker& w, Fiber* f) {
  w.rq[w.rq_tail & w.rq_mask] = f;
  ++w.rq_tail;
}
static inline Fiber* rq_pop(Worker& w) {
  if (w.rq_head == w.rq_tail) return nullptr;
  Fiber* f = w.rq[w.rq_head & w.rq_mask];
  ++w.rq_head;
  return f;
}

// Append n fiber pointers to the ring.
static inline void rq_push_n(Worker& w, Fiber* const* src, std::uint32_t n) {
  Fiber** rq = w.rq.data();
  const std::uint32_t cap = w.rq_mask + 1, t = w.rq_tail & w.rq_mask;
  const std::uint32_t first = std::min(n, cap - t);
  std::memcpy(rq + t, src, first * sizeof(Fiber*));
  std::memcpy(rq, src + first, (n - first) * sizeof(Fiber*));
  w.rq_tail += n;
}

static inline void set_cur(Worker& w, Fiber* f) {
  w.cur = f;
  w.cur_pub.store(f, std::memory_order_relaxed);
  threadIdx = f->tid;
  pkemu_t_lin = f->lin;
  pkemu_t_lane = f->lane;
  pkemu_t_atomics = 0;
}

[[noreturn]] static void abort_block(Worker& w) {
  w.aborting = true;
  ctx_switch(&w.sink.ctx, w.sched.ctx);
  __builtin_unreachable();
}

void abort_current() {
  Worker* w = t_worker;
  if (w && w->cur) abort_block(*w);
}

std::string block_str(uint3 b) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "(%u,%u,%u)", b.x, b.y, b.z);
  return buf;
}

static std::string loc(const char* file, int line) {
  if (!file) return "?";
  return std::string(file) + ":" + std::to_string(line);
}

static std::string hex64(std::uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", (unsigned long long)v);
  return buf;
}

static std::vector<std::uint32_t> lanes_to_lins(Worker& w, const Warp& wp, std::uint64_t m) {
  std::vector<std::uint32_t> v;
  for (int l = 0; l < 64; ++l)
    if ((m >> l) & 1 && wp.lanes[l]) v.push_back(wp.lanes[l]->lin);
  (void)w;
  return v;
}

[[noreturn]] __attribute__((noinline, cold)) static void fatal_here(Worker& w, const char* kind, std::string text, const char* file,
                                    int line) {
  Report r;
  r.kind = kind;
  r.kernel = w.L ? w.L->a.fn : nullptr;
  r.text = std::move(text);
  r.file = file ? file : "";
  r.line = line;
  add_report(std::move(r));
  abort_block(w);
}

static const char* barrier_name(int kind) {
  switch (kind) {
    case 1: return "__syncthreads_count";
    case 2: return "__syncthreads_and";
    case 3: return "__syncthreads_or";
    default: return "__syncthreads";
  }
}

// Everyone is blocked (or exited) and nobody can run: explain and abort the launch.
[[noreturn]] __attribute__((noinline, cold)) static void stuck(Worker& w) {
  std::vector<std::uint32_t> exited;
  struct Group { const char* file; int line; const char* name; bool barrier; std::vector<std::uint32_t> lins; };
  std::vector<Group> groups;
  for (std::uint32_t i = 0; i < w.nthreads; ++i) {
    Fiber& f = w.fibers[i];
    if (f.state == kExited) { exited.push_back(f.lin); continue; }
    bool bar = f.state == kAtBarrier;
    const char* name = bar ? barrier_name(f.bar_kind) : f.cname;
    Group* g = nullptr;
    for (auto& x : groups)
      if (x.barrier == bar && x.line == f.wline && x.name == name &&
          (x.file == f.wfile || (x.file && f.wfile && !std::strcmp(x.file, f.wfile))))
        g = &x;
    if (!g) { groups.push_back(Group{f.wfile, f.wline, name, bar, {}}); g = &groups.back(); }
    g->lins.push_back(f.lin);
  }
  bool any_bar = false;
  for (auto& g : groups) any_bar |= g.barrier;
  std::string text;
  const char* kind;
  const char* file = nullptr;
  int line = 0;
  if (any_bar) {
    kind = "barrier divergence";
    text = "barrier reached by only part of block " + block_str(w.bidx) + ": ";
  } else {
    kind = "warp collective with inconsistent participation";
    text = "deadlock in block " + block_str(w.bidx) + ": ";
  }
  bool first = true;
  for (auto& g : groups) {
    if (!file && (g.barrier || !any_bar)) { file = g.file; line = g.line; }
    if (!first) text += "; ";
    first = false;
    text += describe_threads(g.lins) + " waiting at " + (g.name ? g.name : "?") + " (" + loc(g.file, g.line) + ")";
  }
  if (!exited.empty()) text += "; " + describe_threads(exited) + " exited";
  if (!any_bar) text += "; the collective can never complete";
  fatal_here(w, kind, text, file, line);
}

static void complete(Worker& w, Warp& wp, Pending& s, Fiber* self);
static void remove_slot(Warp& wp, Pending* s);

// Nobody can run.  A non-_sync collective (HIP, legacy CUDA) runs on the lanes
// that are active: lanes that diverged to __syncthreads are not.  When every
// lane a pending non-_sync collective still waits for is at a barrier (or
// exited), complete it for the lanes that arrived, as the hardware does
// (reading an inactive lane yields 0).  Returns whether fibers became ready.
__attribute__((noinline, cold)) static bool complete_divergent(Worker& w) {
  bool progressed = false;
  for (std::uint32_t wi = 0; wi < w.warps.size(); ++wi) {
    Warp& wp = w.warps[wi];
    for (int i = 0; i < wp.nslots; ++i) {
      Pending& p = wp.slots[i];
      if (!p.live_form || !p.arrived) continue;
      bool others_at_barrier = true;
      for (std::uint64_t m = p.mask & ~p.arrived; m; m &= m - 1) {
        Fiber* f = wp.lanes[__builtin_ctzll(m)];
        if (f->state != kAtBarrier) { others_at_barrier = false; break; }
      }
      if (!others_at_barrier) continue;
      p.mask = p.arrived;
      complete(w, wp, p, nullptr);
      remove_slot(wp, &p);
      progressed = true;
      --i;
    }
  }
  return progressed;
}

// Switch away from `self` (already queued or blocked) to the next runnable fiber.
// With hundreds of fibers per block, their stacks and Fiber lines do not stay in L1: while
// switching to `next`, prefetch the saved frames of the fiber after it and the Fiber line of the
// one after that, so that those misses overlap with running `next`.
// kQueued: `self` may be in the ring itself (yield); otherwise it is blocked and cannot be.
template <bool kQueued = true>
static inline void switch_from(Worker& w, Fiber* self) {
  std::uint32_t h = w.rq_head;
  if (__builtin_expect(h == w.rq_tail, 0) && !complete_divergent(w)) stuck(w);
  const std::uint32_t t = w.rq_tail;
  Fiber* next = w.rq[h & w.rq_mask];
  w.rq_head = ++h;
  if (kQueued && next == self) return;
  if (h != t) {
    Fiber* const* rq = w.rq.data();
    const char* sp = static_cast<const char*>(rq[h & w.rq_mask]->ctx);
    __builtin_prefetch(sp);
    __builtin_prefetch(sp + 64);
    __builtin_prefetch(sp + 128);
    if (h + 1 != t) __builtin_prefetch(rq[(h + 1) & w.rq_mask]);
  }
  set_cur(w, next);
  ctx_switch(&self->ctx, next->ctx);
}

void yield() {
  Worker* w = t_worker;
  pkemu_t_atomics = 0;
  if (!w || !w->cur) return;
  Fiber* self = w->cur;
  rq_push(*w, self);
  switch_from(*w, self);
}

// ---------------------------------------------------------------------------------------------
// Barriers.

__attribute__((noinline, cold)) static void barrier_mismatch(Worker& w, const char* file, int line, int kind) {
  if (line != w.bar_line || kind != w.bar_kind || std::strcmp(file, w.bar_file) != 0) w.bar_mismatch = true;
}

[[noreturn]] __attribute__((noinline, cold)) static void barrier_divergence(Worker& w) {
  std::string text = "threads of block " + block_str(w.bidx) + " wait at different barriers: ";
  struct G { const char* f; int l; int k; std::vector<std::uint32_t> lins; };
  std::vector<G> gs;
  for (std::uint32_t i = 0; i < w.nthreads; ++i) {
    Fiber& f = w.fibers[i];
    G* g = nullptr;
    for (auto& x : gs)
      if (x.l == f.wline && x.k == f.bar_kind && !std::strcmp(x.f, f.wfile)) g = &x;
    if (!g) { gs.push_back(G{f.wfile, f.wline, f.bar_kind, {}}); g = &gs.back(); }
    g->lins.push_back(f.lin);
  }
  for (std::size_t i = 0; i < gs.size(); ++i)
    text += (i ? "; " : "") + describe_threads(gs[i].lins) + " at " + barrier_name(gs[i].k) + " (" +
            loc(gs[i].f, gs[i].l) + ")";
  fatal_here(w, "barrier divergence", text, gs[0].f, gs[0].l);
}

__attribute__((noinline)) static int barrier_complete(Worker& w, Fiber* self, int kind) {
  if (w.bar_mismatch) {
    self->state = kAtBarrier;
    barrier_divergence(w);
  }
  w.bar_count = 0;
  ++w.epoch;
  int res = 0;
  switch (kind) {
    case 1: res = (int)w.bar_acc; break;
    case 2: res = w.bar_acc == w.nthreads; break;
    case 3: res = w.bar_acc != 0; break;
    default: break;
  }
  w.bar_result = res;
  // Every thread arrived (exited threads never do, so none has exited): all but `self` wait
  // here. Queue them in thread order; each resets its own state when it resumes.
  Fiber* const* all = w.fiber_ptrs.data();
  const std::uint32_t me = self->lin;
  rq_push_n(w, all, me);
  rq_push_n(w, all + me + 1, w.nthreads - me - 1);
  return res;
}

// The waiting side of a barrier or collective is a separate function that the arrival paths
// tail-call: the frames left on a blocked fiber's stack are only this small one and the
// switch routine's, so each fiber's hot stack spans fewer cache lines.
__attribute__((noinline)) static int barrier_wait(Worker& w, Fiber* self) {
  switch_from<false>(w, self);
  self->state = kReady;
  return w.bar_result;
}

static inline int barrier_arrive(Worker& w, Fiber* self, int kind, int pred, const char* file, int line) {
  self->wfile = file;
  self->wline = line;
  self->bar_kind = (std::uint8_t)kind;
  w.bar_acc += pred != 0;
  if (++w.bar_count == w.nthreads) return barrier_complete(w, self, kind);
  self->state = kAtBarrier;
  return barrier_wait(w, self);
}

__attribute__((noinline, cold)) static int barrier_slow(Worker& w, Fiber* self, int kind, int pred, const char* file,
                                                        int line) {
  barrier_mismatch(w, file, line, kind);
  return barrier_arrive(w, self, kind, pred, file, line);
}

int barrier(int kind, int pred, const char* file, int line) {
  Worker* wp = t_worker;
  Fiber* self;
  if (!wp || !(self = wp->cur)) return 0;  // called on the host: no-op
  Worker& w = *wp;
  if (w.bar_count == 0) {
    w.bar_file = file;
    w.bar_line = line;
    w.bar_kind = kind;
    w.bar_acc = 0;
    w.bar_mismatch = false;
  } else if (__builtin_expect(line != w.bar_line || kind != w.bar_kind || file != w.bar_file, 0)) {
    return barrier_slow(w, self, kind, pred, file, line);
  }
  return barrier_arrive(w, self, kind, pred, file, line);
}

// ---------------------------------------------------------------------------------------------
// Warp collectives.
static inline int shfl_src(std::uint32_t op, int l, std::int64_t arg, int width) {
  int seg = l & ~(width - 1);
  switch (op) {
    case kShflIdx: return seg + (int)(arg & (width - 1));
    case kShflUp: {
      std::int64_t s = (std::int64_t)l - (std::int64_t)(std::uint32_t)arg;
      return s < seg ? l : (int)s;
    }
    case kShflDown: {
      std::int64_t s = (std::int64_t)(l & (width - 1)) + (std::int64_t)(std::uint32_t)arg;
      return s >= width ? l : l + (int)(std::uint32_t)arg;
    }
    case kShflXor: {
      std::int64_t s = (std::int64_t)l ^ (std::int64_t)(std::uint32_t)arg;
      return s >= seg + width ? l : (int)s;
    }
    default: return l;
  }
}

__attribute__((noinline)) static void note_sync_partial(Warp& wp, std::uint64_t parts, std::uint32_t k) {
  if (wp.pair.empty()) wp.pair.assign(64 * 64, 0);
  for (std::uint64_t a = parts; a; a &= a - 1) {
    int la = __builtin_ctzll(a);
    for (std::uint64_t b = parts; b; b &= b - 1) wp.pair[la * 64 + __builtin_ctzll(b)] = k;
  }
}

static inline void note_sync(Warp& wp, std::uint64_t parts) {
  std::uint32_t k = ++wp.coll_count;
  if (__builtin_expect(parts == wp.exists, 1)) {
    wp.last_full = k;
    return;
  }
  note_sync_partial(wp, parts, k);
}

// Shuffle results. Lane l reads the value of lane src(l) when that lane takes part, its own value
// when src(l) == l, and 0 otherwise (inactive or exited source lane).
template <std::uint32_t OP>
static inline void shfl_uniform(Warp& wp, std::uint64_t parts, std::int64_t arg, int width) {
  const std::uint64_t* cv = wp.cval;
  std::uint64_t* cr = wp.cres;
  if (OP == kShflXor && (std::uint64_t)(std::uint32_t)arg < (std::uint64_t)width && (parts & (parts + 1)) == 0) {
    // Dense lanes 0..n-1 and an in-segment xor: src = l ^ arg, never outside the segment.
    const int a = (int)arg;
    const int n = __builtin_popcountll(parts);
    if ((n & (n - 1)) == 0 && a < n) {  // n a power of two: every l ^ a < n takes part
      if (n >= 2) {  // lanes in pairs: (l, l+1) read (b, b^1) with b = l ^ a
        const int e = a & ~1, o = a & 1;
        for (int l = 0; l < n; l += 2) {
          const std::uint64_t x = cv[(l ^ e)], y = cv[(l ^ e) + 1];
          cr[l] = o ? y : x;
          cr[l + 1] = o ? x : y;
        }
        return;
      }
      for (int l = 0; l < n; ++l) cr[l] = cv[l ^ a];
      return;
    }
  }
  for (std::uint64_t m = parts; m; m &= m - 1) {
    const int l = __builtin_ctzll(m);
    const int src = shfl_src(OP, l, arg, width);
    cr[l] = ((parts >> src) & 1) ? cv[src] : 0;  // src is in [0, 64): see shfl_src
  }
}

template <std::uint32_t OP>
static inline void shfl_lanes(Warp& wp, std::uint64_t parts) {
  for (std::uint64_t m = parts; m; m &= m - 1) {
    const int l = __builtin_ctzll(m);
    const int src = shfl_src(OP, l, wp.carg[l], wp.cwidth[l]);
    wp.cres[l] = ((parts >> src) & 1) ? wp.cval[src] : 0;
  }
}

// Whether every participant passed the same arg and width (the usual case).
static inline bool shfl_args_uniform(const Warp& wp, std::uint64_t parts) {
  const int l0 = __builtin_ctzll(parts);
  const std::int64_t a0 = wp.carg[l0];
  const int w0 = wp.cwidth[l0];
  bool same = true;
  const int n = __builtin_popcountll(parts);
  if ((parts & (parts + 1)) == 0 && (n & 3) == 0) {  // lanes 0..n-1, n a multiple of 4
    std::uint64_t d = 0;
    std::uint32_t dw = 0;
    for (int l = 0; l < n; l += 4) {
      d |= (std::uint64_t)((wp.carg[l] ^ a0) | (wp.carg[l + 1] ^ a0) | (wp.carg[l + 2] ^ a0) | (wp.carg[l + 3] ^ a0));
      dw |= (std::uint32_t)((wp.cwidth[l] ^ w0) | (wp.cwidth[l + 1] ^ w0) | (wp.cwidth[l + 2] ^ w0) |
                            (wp.cwidth[l + 3] ^ w0));
    }
    same = (d | dw) == 0;
  } else {
    for (std::uint64_t m = parts; m; m &= m - 1) {
      const int l = __builtin_ctzll(m);
      same &= (wp.carg[l] == a0) & (wp.cwidth[l] == w0);
    }
  }
  return same;
}

template <std::uint32_t OP>
static inline void shfl_complete(Warp& wp, std::uint64_t parts) {
  if (__builtin_expect(shfl_args_uniform(wp, parts), 1)) {
    const int l0 = __builtin_ctzll(parts);
    shfl_uniform<OP>(wp, parts, wp.carg[l0], wp.cwidth[l0]);
  } else {
    shfl_lanes<OP>(wp, parts);
  }
}

__attribute__((noinline)) void complete(Worker& w, Warp& wp, Pending& s, Fiber* self) {
  const std::uint64_t parts = s.arrived;
  const std::uint32_t op = s.kind & 0xff;
  std::uint64_t* const cv = wp.cval;
  std::uint64_t* const cr = wp.cres;
  switch (op) {
    case kShflIdx: shfl_complete<kShflIdx>(wp, parts); break;
    case kShflUp: shfl_complete<kShflUp>(wp, parts); break;
    case kShflDown: shfl_complete<kShflDown>(wp, parts); break;
    case kShflXor: shfl_complete<kShflXor>(wp, parts); break;
    case kBallot: case kAny: case kAll: {
      std::uint64_t b = 0;
      for (std::uint64_t m = parts; m; m &= m - 1) {
        int l = __builtin_ctzll(m);
        if (cv[l]) b |= 1ull << l;
      }
      std::uint64_t r = op == kBallot ? b : op == kAny ? (b != 0) : (b == parts);
      for (std::uint64_t m = parts; m; m &= m - 1) cr[__builtin_ctzll(m)] = r;
      break;
    }
    case kMatchAny:
      for (std::uint64_t m = parts; m; m &= m - 1) {
        const int k = __builtin_ctzll(m);
        std::uint64_t r = 0;
        for (std::uint64_t n = parts; n; n &= n - 1) {
          int l = __builtin_ctzll(n);
          if (cv[l] == cv[k]) r |= 1ull << l;
        }
        cr[k] = r;
      }
      break;
    case kMatchAll: {
      bool same = true;
      std::uint64_t v0 = cv[__builtin_ctzll(parts)];
      for (std::uint64_t m = parts; m; m &= m - 1) same &= cv[__builtin_ctzll(m)] == v0;
      for (std::uint64_t m = parts; m; m &= m - 1) cr[__builtin_ctzll(m)] = same ? parts : 0;
      break;
    }
    case kReadFirst: {
      std::uint64_t v0 = cv[__builtin_ctzll(parts)];
      for (std::uint64_t m = parts; m; m &= m - 1) cr[__builtin_ctzll(m)] = v0;
      break;
    }
    case kBpermute:
      for (std::uint64_t m = parts; m; m &= m - 1) {
        const int k = __builtin_ctzll(m);
        int src = (int)((wp.carg[k] >> 2) & (w.W - 1));
        cr[k] = ((parts >> src) & 1) ? cv[src] : 0;
      }
      break;
    case kCustom: {
      CollView v;
      v.width = w.W;
      v.mask = parts;
      std::memset(v.payload, 0, sizeof v.payload);
      for (std::uint64_t m = parts; m; m &= m - 1) {
        int l = __builtin_ctzll(m);
        v.payload[l] = wp.cpayload[l];
      }
      s.fn(v);
      break;
    }
    default: break;  // kSyncWarp: nothing to compute
  }
  note_sync(wp, parts);
  // Re-queue the waiting lanes in lane order; each resets its own state when it resumes.
  if ((parts & (parts + 1)) == 0) {  // lanes 0..n-1 (the usual case): copy ranges of lanes[]
    const std::uint32_t n = (std::uint32_t)__builtin_popcountll(parts);
    const std::uint32_t me = self ? self->lane : 64u;
    if (me < n && wp.lanes[me] == self) {
      rq_push_n(w, wp.lanes, me);
      rq_push_n(w, wp.lanes + me + 1, n - me - 1);
    } else {
      rq_push_n(w, wp.lanes, n);
    }
    return;
  }
  Fiber** rq = w.rq.data();
  const std::uint32_t qm = w.rq_mask;
  std::uint32_t t = w.rq_tail;
  for (std::uint64_t m = parts; m; m &= m - 1) {
    Fiber* f = wp.lanes[__builtin_ctzll(m)];
    rq[t & qm] = f;  // the slot at the tail is free: writing self there is harmless
    t += f != self;
  }
  w.rq_tail = t;
}

void remove_slot(Warp& wp, Pending* s) {
  int i = (int)(s - wp.slots);
  wp.slots[i] = wp.slots[wp.nslots - 1];
  --wp.nslots;
}

std::uint64_t live_mask() {
  Worker* w = t_worker;
  if (!w || !w->cur) return 1;
  Warp& wp = w->warps[w->cur->warp];
  return wp.exists & ~wp.exited;
}

// Where a collective is called, for reports.
struct CollLoc {
  const char* name;
  const char* file;
  int line;
};

[[noreturn]] __attribute__((noinline, cold)) static void coll_outside(CollLoc at) {
  std::fprintf(stderr, "pkemu: error: %s called outside a kernel (%s:%d)\n", at.name, at.file, at.line);
  die_now();
}

__attribute__((noinline, cold)) static int coll_bad_width(Worker& w, int width, CollLoc at) {
  std::string t = std::string(at.name) + " called with width " + std::to_string(width) +
                  ", which is not a power of two <= the warp width " + std::to_string(w.W);
  error("invalid shuffle width", t.c_str(), at.file, at.line);
  return w.W;
}

static inline CollLoc loc_of(const Fiber* self) { return CollLoc{self->cname, self->wfile, self->wline}; }

[[noreturn]] __attribute__((noinline, cold)) static void coll_bad_mask(Worker& w, Fiber* self, std::uint64_t mask,
                                                                       std::uint64_t m) {
  const CollLoc at = loc_of(self);
  Warp& wp = w.warps[self->warp];
  const char* name = at.name;
  if (!(m & (1ull << self->lane))) {
    std::string t = "thread " + std::to_string(self->lin) + " (lane " + std::to_string(self->lane) + " of warp " +
                    std::to_string(self->warp) + ", block " + block_str(w.bidx) + ", warp width " +
                    std::to_string(w.W) + ") calls " + name + " with mask " + hex64(mask) +
                    " that does not include its own lane";
    fatal_here(w, "warp collective with inconsistent participation", t, at.file, at.line);
  }
  std::string t = std::string(name) + " in block " + block_str(w.bidx) + " with mask " + hex64(mask) + " names " +
                  describe_threads(lanes_to_lins(w, wp, m & wp.exited)) + " which already exited; called by thread " +
                  std::to_string(self->lin);
  fatal_here(w, "warp collective with inconsistent participation", t, at.file, at.line);
}

[[noreturn]] __attribute__((noinline, cold)) static void coll_conflict(Worker& w, Fiber* self, Pending& p,
                                                                       std::uint64_t m, bool overlap) {
  const CollLoc at = loc_of(self);
  Warp& wp = w.warps[self->warp];
  const char* name = at.name;
  std::string t;
  if (overlap)
    t = std::string(name) + " (mask " + hex64(m) + ") called by thread " + std::to_string(self->lin) + " of block " +
        block_str(w.bidx) + " while " + describe_threads(lanes_to_lins(w, wp, p.arrived)) + " waiting at " + p.name +
        " (mask " + hex64(p.mask) + ", " + loc(p.file, p.line) + ")";
  else
    t = "lanes of warp " + std::to_string(self->warp) + " in block " + block_str(w.bidx) +
        " reach different collectives: thread " + std::to_string(self->lin) + " calls " + name + " while " +
        describe_threads(lanes_to_lins(w, wp, p.arrived)) + " waiting at " + p.name + " (" + loc(p.file, p.line) + ")";
  fatal_here(w, "warp collective with inconsistent participation", t, at.file, at.line);
}

[[noreturn]] __attribute__((noinline, cold)) static void coll_too_many(Worker& w, Fiber* self) {
  const CollLoc at = loc_of(self);
  fatal_here(w, "internal", "too many concurrent warp collectives", at.file, at.line);
}

// Waiting side of a collective (see barrier_wait): returns the lane's result once the last lane
// has completed the collective.
__attribute__((noinline)) static std::uint64_t coll_wait(Worker& w, Fiber* self, const std::uint64_t* res) {
  switch_from<false>(w, self);
  self->state = kReady;
  return *res;
}

// Last arrival: compute every lane's result, re-queue the others, return this lane's result.
__attribute__((noinline)) static std::uint64_t coll_finish(Worker& w, Warp& wp, Pending* s, Fiber* self) {
  complete(w, wp, *s, self);
  remove_slot(wp, s);
  return wp.cres[self->lane];
}

__attribute__((noinline, cold)) static std::uint64_t coll_packed_fix_width(std::uint64_t kind_width,
                                                                           std::uint64_t mask, std::uint64_t value,
                                                                           std::uint64_t arg_line, const char* name,
                                                                           const char* file) {
  Worker& w = *t_worker;
  int width = coll_bad_width(w, (int)(std::uint32_t)(kind_width >> 32), CollLoc{name, file, (int)(arg_line >> 32)});
  return coll_packed((std::uint32_t)kind_width | (std::uint64_t)(std::uint32_t)width << 32, mask, value, arg_line,
                     name, file);
}

// Arrival of one lane. kPacked (coll_packed): this path only tail-calls (coll_wait, coll_finish,
// coll_packed_fix_width) or does not return (reports); all arguments are in registers, so it
// needs little or no stack frame, and a blocked fiber keeps only coll_wait's and the switch
// routine's frames on its stack.
template <bool kPacked>
__attribute__((always_inline)) static inline std::uint64_t coll_arrive(std::uint32_t kind, std::uint64_t mask,
                                                                       std::uint64_t value, std::int64_t arg,
                                                                       int width, void* payload, CollFn fn,
                                                                       CollLoc at, std::uint64_t kind_width,
                                                                       std::uint64_t arg_line) {
  Worker* wptr = t_worker;
  Fiber* self;
  if (__builtin_expect(!wptr || !(self = wptr->cur), 0)) coll_outside(at);
  Worker& w = *wptr;
  if (__builtin_expect(width <= 0 || width > w.W || (width & (width - 1)) != 0, 0)) {
    if (kPacked) return coll_packed_fix_width(kind_width, mask, value, arg_line, at.name, at.file);
    width = coll_bad_width(w, width, at);
  }
  // Record where this thread waits first: reports below read the location back from `self`, so
  // name, file and line need no registers for the rest of the arrival.
  self->wfile = at.file;
  self->wline = at.line;
  self->cname = at.name;
  const std::uint32_t lane = self->lane;
  Warp& wp = w.warps[self->warp];
  wp.cval[lane] = value;
  wp.carg[lane] = arg;
  wp.cwidth[lane] = width;
  wp.cpayload[lane] = payload;
  const std::uint64_t bit = 1ull << lane;
  const bool sync = kind & kSyncForm;
  std::uint64_t m;
  if (sync) {
    m = mask & wp.exists;
    if (__builtin_expect(!(m & bit) || (m & wp.exited), 0)) coll_bad_mask(w, self, mask, m);
  } else {
    m = wp.exists & ~wp.exited;
  }
  // A slot's key is its mask for *_sync forms (never 0: it holds the caller) and 0 for the
  // non-sync form, whose mask follows the live lanes.
  const std::uint64_t key = sync ? m : 0;
  Pending* s = nullptr;
  for (int i = 0, n = wp.nslots; i < n; ++i) {
    Pending& p = wp.slots[i];
    if (p.key == key) {
      s = &p;
      break;
    }
    if (__builtin_expect((p.mask & m) != 0, 0)) coll_conflict(w, self, p, m, true);
  }
  if (s) {
    if (__builtin_expect(s->kind != kind || s->fn != fn, 0)) coll_conflict(w, self, *s, m, false);
  } else {
    if (__builtin_expect(wp.nslots == 8, 0)) coll_too_many(w, self);
    s = &wp.slots[wp.nslots++];
    s->mask = m;
    s->key = key;
    s->arrived = 0;
    s->kind = kind;
    s->fn = fn;
    s->name = self->cname;
    s->file = self->wfile;
    s->line = self->wline;
    s->live_form = !sync;
  }
  s->arrived |= bit;
  if (s->arrived == s->mask) return coll_finish(w, wp, s, self);
  self->state = kAtColl;
  return coll_wait(w, self, &wp.cres[lane]);
}

__attribute__((noinline)) static std::uint64_t coll_packed_slow(std::uint64_t kind_width, std::uint64_t mask,
                                                                std::uint64_t value, std::uint64_t arg_line,
                                                                const char* name, const char* file) {
  return coll_arrive<true>((std::uint32_t)kind_width, mask, value, (std::int64_t)(std::uint32_t)arg_line,
                           (int)(std::uint32_t)(kind_width >> 32), nullptr, nullptr,
                           CollLoc{name, file, (int)(std::uint32_t)(arg_line >> 32)}, kind_width, arg_line);
}

// coll_packed's fast path already stored the operands and the call location (see below):
// read them back and take the general path.
__attribute__((noinline)) static std::uint64_t coll_packed_redo(Fiber* self, Warp& wp, std::uint64_t kind_width,
                                                                std::uint64_t mask) {
  const std::uint32_t lane = self->lane;
  const std::uint64_t arg_line = (std::uint32_t)wp.carg[lane] | (std::uint64_t)(std::uint32_t)self->wline << 32;
  return coll_packed_slow(kind_width, mask, wp.cval[lane], arg_line, self->cname, self->wfile);
}

// First lane of a collective in a warp with none pending: open slot 0, then as coll_packed.
__attribute__((noinline)) static std::uint64_t coll_open(Worker& w, Warp& wp, Fiber* self, std::uint32_t kind,
                                                         std::uint64_t m, std::uint64_t key) {
  Pending* s = &wp.slots[0];
  wp.nslots = 1;
  s->mask = m;
  s->key = key;
  s->arrived = 1ull << self->lane;
  s->kind = kind;
  s->fn = nullptr;
  s->name = self->cname;
  s->file = self->wfile;
  s->line = self->wline;
  s->live_form = key == 0;
  if (s->arrived == m) return coll_finish(w, wp, s, self);
  self->state = kAtColl;
  return coll_wait(w, self, &wp.cres[self->lane]);
}

// Fast path of coll_packed for the common cases: a valid width and mask, and either no
// collective pending in the warp (this lane opens one) or exactly one of the same form, mask and
// kind (this lane joins it). Everything else (reports, several collectives in flight) goes to
// the general path, which performs the same steps with all the checks. The operands and the
// call location are stored first (this lane takes part in no pending collective and is not
// blocked, so nobody reads them before this call ends), which keeps few values in registers.
std::uint64_t coll_packed(std::uint64_t kind_width, std::uint64_t mask, std::uint64_t value, std::uint64_t arg_line,
                          const char* name, const char* file) {
  Worker* wptr = t_worker;
  Fiber* self;
  if (__builtin_expect(!wptr || !(self = wptr->cur), 0))
    return coll_packed_slow(kind_width, mask, value, arg_line, name, file);
  Worker& w = *wptr;
  const std::uint32_t lane = self->lane;
  Warp& wp = w.warps[self->warp];
  const int width = (int)(std::uint32_t)(kind_width >> 32);
  wp.cval[lane] = value;
  wp.carg[lane] = (std::int64_t)(std::uint32_t)arg_line;
  wp.cwidth[lane] = width;
  self->wfile = file;
  self->wline = (int)(std::uint32_t)(arg_line >> 32);
  self->cname = name;
  if (__builtin_expect(width <= 0 || width > w.W || (width & (width - 1)) != 0, 0))
    return coll_packed_redo(self, wp, kind_width, mask);
  const std::uint32_t kind = (std::uint32_t)kind_width;
  const std::uint64_t bit = 1ull << lane;
  std::uint64_t m, key;
  if (kind & kSyncForm) {
    m = key = mask & wp.exists;
    if (__builtin_expect(!(m & bit) || (m & wp.exited), 0)) return coll_packed_redo(self, wp, kind_width, mask);
  } else {
    m = wp.exists & ~wp.exited;
    key = 0;
  }
  const int ns = wp.nslots;
  if (ns == 0) return coll_open(w, wp, self, kind, m, key);
  Pending* s = &wp.slots[0];
  if (__builtin_expect(ns > 1 || s->key != key || s->kind != kind || s->fn != nullptr, 0))
    return coll_packed_redo(self, wp, kind_width, mask);
  if ((s->arrived |= bit) == s->mask) return coll_finish(w, wp, s, self);
  self->state = kAtColl;
  return coll_wait(w, self, &wp.cres[lane]);
}

std::uint64_t coll(std::uint32_t kind, std::uint64_t mask, std::uint64_t value, std::int64_t arg, int width,
                   void* payload, CollFn fn, const char* name, const char* file, int line) {
  return coll_arrive<false>(kind, mask, value, arg, width, payload, fn, CollLoc{name, file, line}, 0, 0);
}

// A lane exited: pending non-sync collectives may now be complete, sync ones are broken.
static void on_lane_exit(Worker& w, Fiber* self) {
  Warp& wp = w.warps[self->warp];
  const std::uint64_t bit = 1ull << self->lane;
  wp.exited |= bit;
  for (int i = 0; i < wp.nslots; ++i) {
    Pending& p = wp.slots[i];
    if (!(p.mask & bit)) continue;
    if (!p.live_form) {
      std::string t = "thread " + std::to_string(self->lin) + " of block " + block_str(w.bidx) +
                      " exited while " + describe_threads(lanes_to_lins(w, wp, p.arrived)) + " waiting at " +
                      p.name + " with mask " + hex64(p.mask) + " that includes it";
      fatal_here(w, "warp collective with inconsistent participation", t, p.file, p.line);
    }
    p.mask &= ~bit;
    if (p.arrived == p.mask && p.mask) {
      complete(w, wp, p, self);
      remove_slot(wp, &p);
      --i;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Shared memory.
static void reset_arena(Worker& w, std::size_t dyn) {
  std::size_t used = std::max(w.hwm, dyn + kRedzone);
  if (used > kArenaCap) used = kArenaCap;
  std::memset(w.sstate, 0, used);
  std::memset(w.arena, 0xff, used);  // poison: uninitialised floats read as NaN
  std::memset(w.sstate, 1, dyn);
  w.dyn_size = dyn;
  w.hwm = dyn + kRedzone;
  w.static_top = (dyn + kRedzone + 15) & ~std::size_t(15);
  w.static_bytes = 0;
  w.decls.clear();
}

void* shared_alloc(const SharedDecl* d) {
  Worker* wp = t_worker;
  if (!wp || !wp->cur) {
    std::fprintf(stderr, "pkemu: error: __shared__ variable '%s' (%s:%d) used outside a kernel\n", d->name,
                 d->file, d->line);
    die_now();
  }
  Worker& w = *wp;
  for (auto& s : w.decls)
    if (s.d == d) return w.arena + s.off;
  std::size_t al = std::max<std::size_t>(d->align, 16);
  std::size_t off = (w.static_top + al - 1) & ~(al - 1);
  if (off + d->size + kRedzone > kArenaCap)
    fatal_here(w, "shared memory exhausted",
               std::string("static __shared__ '") + d->name + "' does not fit in the emulated shared memory",
               d->file, d->line);
  w.static_bytes += d->size;
  if (w.static_bytes > kStaticLimit) {
    std::string t = "kernel declares " + std::to_string(w.static_bytes) +
                    " bytes of static shared memory, more than the 48 KiB per-block limit";
    error("shared memory limit exceeded", t.c_str(), d->file, d->line);
  }
  std::memset(w.sstate + off, 1, d->size);
  w.static_top = off + d->size + kRedzone;
  w.hwm = std::max(w.hwm, w.static_top);
  w.decls.push_back(DeclSlot{d, off});
  return w.arena + off;
}

// ---------------------------------------------------------------------------------------------
// Fibers and blocks.
static char* get_stack(Worker& w, std::size_t i) {
  while (w.stacks.size() <= i) {
    long pg = sysconf(_SC_PAGESIZE);
    void* p = mmap(nullptr, w.stack_bytes + pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                   -1, 0);
    if (p == MAP_FAILED) {
      std::fprintf(stderr, "pkemu: error: cannot allocate fiber stacks\n");
      die_now();
    }
    mprotect(p, pg, PROT_NONE);  // guard page
    w.stacks.push_back(static_cast<char*>(p));
  }
  return w.stacks[i];
}

static void fiber_main() {
  Worker& w = *t_worker;
  Fiber* self = w.cur;
  try {
    w.L->a.thunk(w.L->a.pack);
  } catch (...) {
    fatal_here(w, "exception", "a C++ exception escaped the kernel in thread " + std::to_string(self->lin) +
                                   " of block " + block_str(w.bidx), nullptr, 0);
  }
  self->state = kExited;
  ++w.nexited;
  on_lane_exit(w, self);
  if (w.nexited == w.nthreads) {
    ctx_switch(&w.sink.ctx, w.sched.ctx);
    __builtin_unreachable();
  }
  Fiber* next = rq_pop(w);
  if (!next && complete_divergent(w)) next = rq_pop(w);
  if (!next) stuck(w);
  set_cur(w, next);
  ctx_switch(&w.sink.ctx, next->ctx);
  __builtin_unreachable();
}

static void setup_worker_arena(Worker& w) {
  if (w.arena) return;
  w.arena = static_cast<char*>(mmap(nullptr, kArenaCap, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
  w.sstate = static_cast<std::uint8_t*>(
      mmap(nullptr, kArenaCap, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
  w.cells = static_cast<Cell*>(mmap(nullptr, kArenaCap * sizeof(Cell), PROT_READ | PROT_WRITE,
                                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0));
  if (w.arena == MAP_FAILED || w.sstate == MAP_FAILED || w.cells == MAP_FAILED) {
    std::fprintf(stderr, "pkemu: error: cannot allocate the shared-memory arena\n");
    die_now();
  }
  w.arena_cap = kArenaCap;
}

static void prepare_launch(Worker& w, const LaunchCtx& L) {
  setup_worker_arena(w);
  w.L = &L;
  w.W = L.W;
  w.nthreads = L.nthreads;
  w.nwarps = (L.nthreads + L.W - 1) / L.W;
  w.stack_bytes = config().stack_kb * 1024;
  if (w.fibers.size() < L.nthreads) w.fibers.resize(L.nthreads);
  if (w.warps.size() < w.nwarps) w.warps.resize(w.nwarps);
  std::uint32_t cap = 1;
  while (cap < L.nthreads + 1) cap <<= 1;
  if (w.rq.size() < cap) w.rq.resize(cap);
  w.rq_mask = (std::uint32_t)w.rq.size() - 1;
  const dim3 b = L.a.block;
  long pg = sysconf(_SC_PAGESIZE);
  w.fiber_ptrs.resize(w.fibers.size());
  for (std::uint32_t i = 0; i < L.nthreads; ++i) {
    Fiber& f = w.fibers[i];
    w.fiber_ptrs[i] = &f;
    f.lin = i;
    f.tid = uint3{i % b.x, (i / b.x) % b.y, i / (b.x * b.y)};
    f.lane = i % L.W;
    f.warp = i / L.W;
    f.stack = get_stack(w, i) + pg;
  }
  for (std::uint32_t k = 0; k < w.nwarps; ++k) {
    Warp& wp = w.warps[k];
    std::memset(wp.lanes, 0, sizeof wp.lanes);
    std::uint32_t lo = k * L.W, hi = std::min<std::uint32_t>(lo + L.W, L.nthreads);
    wp.exists = 0;
    for (std::uint32_t i = lo; i < hi; ++i) {
      wp.lanes[i - lo] = &w.fibers[i];
      wp.exists |= 1ull << (i - lo);
    }
  }
  blockDim = L.a.block;
  gridDim = L.a.grid;
}

static void run_block(Worker& w, const LaunchCtx& L, std::uint64_t b) {
  const dim3 g = L.a.grid;
  w.bidx = uint3{(unsigned)(b % g.x), (unsigned)((b / g.x) % g.y), (unsigned)(b / ((std::uint64_t)g.x * g.y))};
  w.block_pub.store((std::int64_t)b, std::memory_order_relaxed);
  blockIdx = w.bidx;
  reset_arena(w, L.a.shmem);
  ++w.epoch;
  w.nexited = 0;
  w.bar_count = 0;
  w.rq_head = w.rq_tail = 0;
  for (std::uint32_t k = 0; k < w.nwarps; ++k) {
    w.warps[k].exited = 0;
    w.warps[k].nslots = 0;
  }
  const std::size_t sb = w.stack_bytes;
  for (std::uint32_t i = 0; i < L.nthreads; ++i) {
    Fiber& f = w.fibers[i];
    f.state = kReady;
    // Stagger stack tops so that the hot frames of different fibers use different cache sets.
    char* top = f.stack + sb - ((i & 63) * 64);
    f.ctx = ctx_make(top);
    if (i) rq_push(w, &f);
  }
  pkemu_t_arena_lo = (std::uintptr_t)w.arena;
  pkemu_t_arena_size = w.arena_cap;
  pkemu_t_dyn_base = w.arena;
  w.aborting = false;
  set_cur(w, &w.fibers[0]);
  ctx_switch(&w.sched.ctx, w.fibers[0].ctx);
  pkemu_t_arena_size = 0;
  w.cur = nullptr;
  w.cur_pub.store(nullptr, std::memory_order_relaxed);
  if (w.aborting) die_now();
}

// ---------------------------------------------------------------------------------------------
// Worker pool and launches.
namespace {
// Never destroyed: pool threads may still wait on them while the process exits.
std::mutex& g_pool_mu = *new std::mutex;
std::condition_variable& g_pool_cv = *new std::condition_variable;
std::condition_variable& g_done_cv = *new std::condition_variable;
std::uint64_t g_generation = 0;
int g_running = 0;
LaunchCtx* g_pool_launch = nullptr;
std::once_flag g_pool_once;
std::mutex& g_launch_mu = *new std::mutex;

void worker_loop(Worker& w, LaunchCtx& L) {
  prepare_launch(w, L);
  for (;;) {
    std::uint64_t b = L.next.fetch_add(1, std::memory_order_relaxed);
    if (b >= L.nblocks) break;
    run_block(w, L, b);
  }
  w.block_pub.store(-1, std::memory_order_relaxed);
  w.L = nullptr;
}

void pool_thread(Worker* w) {
  t_worker = w;
  std::uint64_t seen = 0;
  for (;;) {
    LaunchCtx* L;
    {
      std::unique_lock<std::mutex> lk(g_pool_mu);
      g_pool_cv.wait(lk, [&] { return g_generation != seen; });
      seen = g_generation;
      L = g_pool_launch;
    }
    worker_loop(*w, *L);
    {
      std::lock_guard<std::mutex> lk(g_pool_mu);
      if (--g_running == 0) g_done_cv.notify_all();
    }
  }
}

void watchdog() {
  for (;;) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    LaunchCtx* L = g_active_launch.load(std::memory_order_acquire);
    double to = config().timeout_s;
    if (!L || to <= 0) continue;
    auto now = (std::uint64_t)std::chrono::duration_cast<std::chrono::nanoseconds>(
                   std::chrono::steady_clock::now().time_since_epoch()).count();
    std::uint64_t st = L->start_ns.load(std::memory_order_relaxed);
    if (!st || now - st < (std::uint64_t)(to * 1e9)) continue;
    std::string text = "kernel did not finish within " + std::to_string((int)to) +
                       " s (PKEMU_TIMEOUT_S); it probably hangs.";
    for (Worker* w : g_workers) {
      std::int64_t b = w->block_pub.load(std::memory_order_relaxed);
      Fiber* f = w->cur_pub.load(std::memory_order_relaxed);
      if (b < 0 || !f) continue;
      const dim3 g = L->a.grid;
      uint3 bi{(unsigned)(b % g.x), (unsigned)((b / g.x) % g.y), (unsigned)(b / ((std::int64_t)g.x * g.y))};
      text += " Block " + block_str(bi) + ": thread " + std::to_string(f->lin) + " (threadIdx " +
              block_str(f->tid) + ") is running;";
    }
    Report r;
    r.kind = "timeout";
    r.kernel = L->a.fn;
    r.text = text;
    add_report(std::move(r));
    die_now();
  }
}

Worker* new_worker(int id) {
  Worker* w = new Worker();
  w->id = id;
  g_workers.push_back(w);
  return w;
}

void start_pool() {
  const Config& c = config();
  Worker* host = new_worker(0);
  t_worker = host;
  for (int i = 1; i < c.workers; ++i) {
    Worker* w = new_worker(i);
    std::thread(pool_thread, w).detach();
  }
  std::thread(watchdog).detach();
}

}  // namespace

int launch_kernel(const LaunchArgs& a);  // defined in api.cpp (validation), calls run_launch

void run_launch(const LaunchArgs& a, std::uint32_t nthreads) {
  std::call_once(g_pool_once, start_pool);
  std::lock_guard<std::mutex> lg(g_launch_mu);
  Worker* self = t_worker;
  if (!self) {
    // Launch from a host thread other than the first one: give it its own worker.
    static std::mutex mu;
    std::lock_guard<std::mutex> lk(mu);
    self = new_worker((int)g_workers.size());
    t_worker = self;
  }
  if (self->cur) {
    std::fprintf(stderr, "pkemu: error: kernel launch from device code is not supported\n");
    die_now();
  }
  LaunchCtx L;
  L.a = a;
  L.nthreads = nthreads;
  L.W = config().warp;
  L.nblocks = (std::uint64_t)a.grid.x * a.grid.y * a.grid.z;
  L.start_ns.store((std::uint64_t)std::chrono::duration_cast<std::chrono::nanoseconds>(
                       std::chrono::steady_clock::now().time_since_epoch()).count());
  g_active_launch.store(&L, std::memory_order_release);
  int helpers = (int)std::min<std::uint64_t>(L.nblocks, (std::uint64_t)config().workers) - 1;
  if (helpers > 0) {
    std::lock_guard<std::mutex> lk(g_pool_mu);
    g_pool_launch = &L;
    g_running = config().workers - 1;
    ++g_generation;
    g_pool_cv.notify_all();
  }
  worker_loop(*self, L);
  if (helpers > 0) {
    std::unique_lock<std::mutex> lk(g_pool_mu);
    g_done_cv.wait(lk, [] { return g_running == 0; });
  }
  g_active_launch.store(nullptr, std::memory_order_release);
  flush_reports();
}

}  // namespace detail
}  // namespace pkemu
