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

} // namespace detail
} // namespace pkemu
