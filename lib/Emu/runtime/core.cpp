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

// Switch away from `self` (already queued or blocked) to the next runnable fiber.
static inline void switch_from(Worker& w, Fiber* self) {
  Fiber* next = rq_pop(w);
  if (__builtin_expect(next == nullptr, 0)) stuck(w);
  if (next == self) return;
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
  Fiber* fs = w.fibers.data();
  for (std::uint32_t i = 0, n = w.nthreads; i < n; ++i)
    if (fs[i].state == kAtBarrier) {
      fs[i].state = kReady;
      rq_push(w, &fs[i]);
    }
  return res;
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
    barrier_mismatch(w, file, line, kind);
  }
  self->wfile = file;
  self->wline = line;
  self->bar_kind = kind;
  w.bar_acc += pred != 0;
  if (++w.bar_count == w.nthreads) return barrier_complete(w, self, kind);
  self->state = kAtBarrier;
  switch_from(w, self);
  return w.bar_result;
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

static void note_sync(Warp& wp, std::uint64_t parts) {
  std::uint32_t k = ++wp.coll_count;
  if (parts == wp.exists) {
    wp.last_full = k;
    return;
  }
  if (wp.pair.empty()) wp.pair.assign(64 * 64, 0);
  for (std::uint64_t a = parts; a; a &= a - 1) {
    int la = __builtin_ctzll(a);
    for (std::uint64_t b = parts; b; b &= b - 1) wp.pair[la * 64 + __builtin_ctzll(b)] = k;
  }
}

__attribute__((noinline)) static void complete(Worker& w, Warp& wp, Pending& s, Fiber* self) {
  const std::uint64_t parts = s.arrived;
  const std::uint32_t op = s.kind & 0xff;
  switch (op) {
    case kShflIdx: case kShflUp: case kShflDown: case kShflXor:
      for (std::uint64_t m = parts; m; m &= m - 1) {
        int l = __builtin_ctzll(m);
        Fiber* f = wp.lanes[l];
        int src = shfl_src(op, l, f->carg, f->cwidth);
        if (src == l) f->cres = f->cval;
        else if (src >= 0 && src < 64 && ((parts >> src) & 1)) f->cres = wp.lanes[src]->cval;
        else f->cres = 0;  // inactive or exited source lane
      }
      break;
    case kBallot: case kAny: case kAll: {
      std::uint64_t b = 0;
      for (std::uint64_t m = parts; m; m &= m - 1) {
        int l = __builtin_ctzll(m);
        if (wp.lanes[l]->cval) b |= 1ull << l;
      }
      std::uint64_t r = op == kBallot ? b : op == kAny ? (b != 0) : (b == parts);
      for (std::uint64_t m = parts; m; m &= m - 1) wp.lanes[__builtin_ctzll(m)]->cres = r;
      break;
    }
    case kMatchAny:
      for (std::uint64_t m = parts; m; m &= m - 1) {
        Fiber* f = wp.lanes[__builtin_ctzll(m)];
        std::uint64_t r = 0;
        for (std::uint64_t n = parts; n; n &= n - 1) {
          int l = __builtin_ctzll(n);
          if (wp.lanes[l]->cval == f->cval) r |= 1ull << l;
        }
        f->cres = r;
      }
      break;
    case kMatchAll: {
      bool same = true;
      std::uint64_t v0 = wp.lanes[__builtin_ctzll(parts)]->cval;
      for (std::uint64_t m = parts; m; m &= m - 1) same &= wp.lanes[__builtin_ctzll(m)]->cval == v0;
      for (std::uint64_t m = parts; m; m &= m - 1) wp.lanes[__builtin_ctzll(m)]->cres = same ? parts : 0;
      break;
    }
    case kReadFirst: {
      std::uint64_t v0 = wp.lanes[__builtin_ctzll(parts)]->cval;
      for (std::uint64_t m = parts; m; m &= m - 1) wp.lanes[__builtin_ctzll(m)]->cres = v0;
      break;
    }
    case kBpermute:
      for (std::uint64_t m = parts; m; m &= m - 1) {
        Fiber* f = wp.lanes[__builtin_ctzll(m)];
        int src = (int)((f->carg >> 2) & (w.W - 1));
        f->cres = ((parts >> src) & 1) ? wp.lanes[src]->cval : 0;
      }
      break;
    case kCustom: {
      CollView v;
      v.width = w.W;
      v.mask = parts;
      std::memset(v.payload, 0, sizeof v.payload);
      for (std::uint64_t m = parts; m; m &= m - 1) {
        int l = __builtin_ctzll(m);
        v.payload[l] = wp.lanes[l]->cpayload;
      }
      s.fn(v);
      break;
    }
    default: break;  // kSyncWarp: nothing to compute
  }
  note_sync(wp, parts);
  for (std::uint64_t m = parts; m; m &= m - 1) {
    Fiber* f = wp.lanes[__builtin_ctzll(m)];
    if (f != self) {
      f->state = kReady;
      rq_push(w, f);
    }
  }
}

static void remove_slot(Warp& wp, Pending* s) {
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

[[noreturn]] __attribute__((noinline, cold)) static void coll_outside(const char* name, const char* file, int line) {
  std::fprintf(stderr, "pkemu: error: %s called outside a kernel (%s:%d)\n", name, file, line);
  die_now();
}

__attribute__((noinline, cold)) static int coll_bad_width(Worker& w, int width, const char* name, const char* file,
                                                          int line) {
  std::string t = std::string(name) + " called with width " + std::to_string(width) +
                  ", which is not a power of two <= the warp width " + std::to_string(w.W);
  error("invalid shuffle width", t.c_str(), file, line);
  return w.W;
}

[[noreturn]] __attribute__((noinline, cold)) static void coll_bad_mask(Worker& w, Warp& wp, Fiber* self,
                                                                       std::uint64_t mask, std::uint64_t m,
                                                                       const char* name, const char* file, int line) {
  if (!(m & (1ull << self->lane))) {
    std::string t = "thread " + std::to_string(self->lin) + " (lane " + std::to_string(self->lane) + " of warp " +
                    std::to_string(self->warp) + ", block " + block_str(w.bidx) + ", warp width " +
                    std::to_string(w.W) + ") calls " + name + " with mask " + hex64(mask) +
                    " that does not include its own lane";
    fatal_here(w, "warp collective with inconsistent participation", t, file, line);
  }
  std::string t = std::string(name) + " in block " + block_str(w.bidx) + " with mask " + hex64(mask) + " names " +
                  describe_threads(lanes_to_lins(w, wp, m & wp.exited)) + " which already exited; called by thread " +
                  std::to_string(self->lin);
  fatal_here(w, "warp collective with inconsistent participation", t, file, line);
}

[[noreturn]] __attribute__((noinline, cold)) static void coll_conflict(Worker& w, Warp& wp, Fiber* self, Pending& p,
                                                                       std::uint64_t m, bool overlap,
                                                                       const char* name, const char* file, int line) {
  std::string t;
  if (overlap)
    t = std::string(name) + " (mask " + hex64(m) + ") called by thread " + std::to_string(self->lin) + " of block " +
        block_str(w.bidx) + " while " + describe_threads(lanes_to_lins(w, wp, p.arrived)) + " waiting at " + p.name +
        " (mask " + hex64(p.mask) + ", " + loc(p.file, p.line) + ")";
  else
    t = "lanes of warp " + std::to_string(self->warp) + " in block " + block_str(w.bidx) +
        " reach different collectives: thread " + std::to_string(self->lin) + " calls " + name + " while " +
        describe_threads(lanes_to_lins(w, wp, p.arrived)) + " waiting at " + p.name + " (" + loc(p.file, p.line) + ")";
  fatal_here(w, "warp collective with inconsistent participation", t, file, line);
}

std::uint64_t coll(std::uint32_t kind, std::uint64_t mask, std::uint64_t value, std::int64_t arg, int width,
                   void* payload, CollFn fn, const char* name, const char* file, int line) {
  Worker* wptr = t_worker;
  Fiber* self;
  if (__builtin_expect(!wptr || !(self = wptr->cur), 0)) coll_outside(name, file, line);
  Worker& w = *wptr;
  Warp& wp = w.warps[self->warp];
  const std::uint64_t bit = 1ull << self->lane;
  const bool sync = kind & kSyncForm;
  if (__builtin_expect(width <= 0 || width > w.W || (width & (width - 1)) != 0, 0))
    width = coll_bad_width(w, width, name, file, line);
  std::uint64_t m;
  if (sync) {
    m = mask & wp.exists;
    if (__builtin_expect(!(m & bit) || (m & wp.exited), 0)) coll_bad_mask(w, wp, self, mask, m, name, file, line);
  } else {
    m = wp.exists & ~wp.exited;
  }
  Pending* s = nullptr;
  for (int i = 0; i < wp.nslots; ++i) {
    Pending& p = wp.slots[i];
    if (sync ? (!p.live_form && p.mask == m) : p.live_form) {
      s = &p;
      break;
    }
    if (p.mask & m) coll_conflict(w, wp, self, p, m, true, name, file, line);
  }
  if (s) {
    if (__builtin_expect(s->kind != kind || s->fn != fn, 0)) coll_conflict(w, wp, self, *s, m, false, name, file, line);
  } else {
    if (__builtin_expect(wp.nslots == 8, 0)) fatal_here(w, "internal", "too many concurrent warp collectives", file, line);
    s = &wp.slots[wp.nslots++];
    s->mask = m;
    s->arrived = 0;
    s->kind = kind;
    s->fn = fn;
    s->name = name;
    s->file = file;
    s->line = line;
    s->live_form = !sync;
  }
  s->arrived |= bit;
  self->cval = value;
  self->carg = arg;
  self->cwidth = width;
  self->cpayload = payload;
  if (s->arrived == s->mask) {
    complete(w, wp, *s, self);
    remove_slot(wp, s);
    return self->cres;
  }
  self->state = kAtColl;
  self->wfile = file;
  self->wline = line;
  self->cname = name;
  switch_from(w, self);
  return self->cres;
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
  for (std::uint32_t i = 0; i < L.nthreads; ++i) {
    Fiber& f = w.fibers[i];
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
