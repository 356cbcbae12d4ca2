//===- barriers.cpp - __syncthreads and its count/and/or forms ------------===//
// Rules: none (emulator runtime)
//
// A thread that reaches a barrier records its arrival and switches to the next
// runnable fiber; the last thread to arrive computes the result, re-queues the
// others and continues. Threads of one block that wait at different barriers
// are reported as barrier divergence.
//
//===----------------------------------------------------------------------===//
#include <cstring>

#include "internal.h"

namespace pkemu {
namespace detail {

const char *barrier_name(int kind) {
  switch (kind) {
  case 1:
    return "__syncthreads_count";
  case 2:
    return "__syncthreads_and";
  case 3:
    return "__syncthreads_or";
  default:
    return "__syncthreads";
  }
}

__attribute__((noinline, cold)) static void
barrier_mismatch(Worker &w, const char *file, int line, int kind) {
  if (line != w.bar_line || kind != w.bar_kind ||
      std::strcmp(file, w.bar_file) != 0)
    w.bar_mismatch = true;
}

[[noreturn]] __attribute__((noinline, cold)) static void
barrier_divergence(Worker &w) {
  std::string text =
      "threads of block " + block_str(w.bidx) + " wait at different barriers: ";
  struct G {
    const char *f;
    int l;
    int k;
    std::vector<std::uint32_t> lins;
  };
  std::vector<G> gs;
  for (std::uint32_t i = 0; i < w.nthreads; ++i) {
    Fiber &f = w.fibers[i];
    G *g = nullptr;
    for (auto &x : gs)
      if (x.l == f.wline && x.k == f.bar_kind && !std::strcmp(x.f, f.wfile))
        g = &x;
    if (!g) {
      gs.push_back(G{f.wfile, f.wline, f.bar_kind, {}});
      g = &gs.back();
    }
    g->lins.push_back(f.lin);
  }
  for (std::size_t i = 0; i < gs.size(); ++i)
    text += (i ? "; " : "") + describe_threads(gs[i].lins) + " at " +
            barrier_name(gs[i].k) + " (" + loc(gs[i].f, gs[i].l) + ")";
  fatal_here(w, "barrier divergence", text, gs[0].f, gs[0].l);
}

__attribute__((noinline)) static int barrier_complete(Worker &w, Fiber *self,
                                                      int kind) {
  if (w.bar_mismatch) {
    self->state = kAtBarrier;
    barrier_divergence(w);
  }
  w.bar_count = 0;
  ++w.epoch;
  int res = 0;
  switch (kind) {
  case 1:
    res = (int)w.bar_acc;
    break;
  case 2:
    res = w.bar_acc == w.nthreads;
    break;
  case 3:
    res = w.bar_acc != 0;
    break;
  default:
    break;
  }
  w.bar_result = res;
  // Every thread arrived (exited threads never do, so none has exited): all but
  // `self` wait here. Queue them in thread order; each resets its own state
  // when it resumes.
  Fiber *const *all = w.fiber_ptrs.data();
  const std::uint32_t me = self->lin;
  rq_push_n(w, all, me);
  rq_push_n(w, all + me + 1, w.nthreads - me - 1);
  return res;
}

// The waiting side of a barrier or collective is a separate function that the
// arrival paths tail-call: the frames left on a blocked fiber's stack are only
// this small one and the switch routine's, so each fiber's hot stack spans
// fewer cache lines.
__attribute__((noinline)) static int barrier_wait(Worker &w, Fiber *self) {
  switch_from<false>(w, self);
  self->state = kReady;
  return w.bar_result;
}

static inline int barrier_arrive(Worker &w, Fiber *self, int kind, int pred,
                                 const char *file, int line) {
  self->wfile = file;
  self->wline = line;
  self->bar_kind = (std::uint8_t)kind;
  w.bar_acc += pred != 0;
  if (++w.bar_count == w.nthreads)
    return barrier_complete(w, self, kind);
  self->state = kAtBarrier;
  return barrier_wait(w, self);
}

__attribute__((noinline, cold)) static int barrier_slow(Worker &w, Fiber *self,
                                                        int kind, int pred,
                                                        const char *file,
                                                        int line) {
  barrier_mismatch(w, file, line, kind);
  return barrier_arrive(w, self, kind, pred, file, line);
}

int barrier(int kind, int pred, const char *file, int line) {
  Worker *wp = t_worker;
  Fiber *self;
  if (!wp || !(self = wp->cur))
    return 0; // called on the host: no-op
  Worker &w = *wp;
  if (w.bar_count == 0) {
    w.bar_file = file;
    w.bar_line = line;
    w.bar_kind = kind;
    w.bar_acc = 0;
    w.bar_mismatch = false;
  } else if (__builtin_expect(line != w.bar_line || kind != w.bar_kind ||
                                  file != w.bar_file,
                              0)) {
    return barrier_slow(w, self, kind, pred, file, line);
  }
  return barrier_arrive(w, self, kind, pred, file, line);
}

// ---------------------------------------------------------------------------------------------
// grid_group::sync. Every thread of the block arrives at a block barrier; its
// first thread then arrives at the grid barrier and polls its generation as a
// spin point (the block is suspended so that the other resident blocks run);
// a second block barrier releases the block. A cooperative launch is only
// started when the whole grid can be resident (api.cpp), so every block
// reaches the grid barrier unless one finishes without it, which is reported.
bool grid_is_cooperative() {
  Worker *w = t_worker;
  return w && w->cur && w->L && w->L->a.cooperative;
}

void grid_sync(const char *file, int line) {
  Worker *w = t_worker;
  if (!w || !w->cur || !w->L)
    fatal("unsupported launch", "grid_group::sync called outside a kernel",
          file, line);
  if (!w->L->a.cooperative)
    fatal_here(*w, "unsupported launch",
               "grid_group::sync (this_grid().sync()) in block " +
                   block_str(w->bidx) +
                   " of a kernel not launched with "
                   "cudaLaunchCooperativeKernel / hipLaunchCooperativeKernel: "
                   "its blocks are not guaranteed to be resident at once, and "
                   "the grid barrier is undefined (CUDA requires a "
                   "cooperative launch)",
               file, line);
  barrier(0, 0, file, line);
  w = t_worker;
  if (w->cur->lin == 0) {
    LaunchCtx &L = const_cast<LaunchCtx &>(*w->L);
    const std::uint64_t gen = L.grid_gen.load(std::memory_order_acquire);
    if (L.grid_arrived.fetch_add(1, std::memory_order_acq_rel) + 1 ==
        L.nblocks) {
      L.grid_arrived.store(0, std::memory_order_relaxed);
      L.grid_gen.fetch_add(1, std::memory_order_release);
    } else {
      while (L.grid_gen.load(std::memory_order_acquire) == gen) {
        std::uint64_t fin = L.finished.load(std::memory_order_acquire);
        if (fin && L.grid_gen.load(std::memory_order_acquire) == gen) {
          std::uint64_t arrived = L.grid_arrived.load();
          fatal_here(*t_worker, "barrier divergence",
                     "grid_group::sync reached by only part of the grid: " +
                         std::to_string(arrived) + " of " +
                         std::to_string(L.nblocks) +
                         " blocks wait at it, and " + std::to_string(fin) +
                         (fin == 1 ? " block" : " blocks") +
                         " finished without reaching it; every thread of "
                         "every block must call it",
                     file, line);
        }
        spin_wait_on(&L.grid_gen, sizeof(std::uint64_t));
        spin_yield(__builtin_return_address(0));
      }
    }
  }
  barrier(0, 0, file, line);
}

} // namespace detail
} // namespace pkemu
