//===- collectives.cpp - warp collectives: shuffles, votes, WMMA/MFMA -----===//
// Rules: none (emulator runtime)
//
// Every lane of a collective records its operands in the warp and switches to
// the next runnable fiber; the last lane to arrive computes every lane's result
// (shuffle sources, ballots, matches, custom WMMA/MFMA functions), re-queues
// the waiting lanes and continues. coll_packed is the entry of shuffles, votes
// and
// __syncwarp, with a fast path for the common cases; coll is the general entry.
// Participation errors (masks, exited lanes, different collectives reached by
// lanes of one warp) are reported here.
//
//===----------------------------------------------------------------------===//
#include <cstdio>
#include <cstring>
#include <string>

#include "internal.h"

namespace pkemu {
namespace detail {

static inline int shfl_src(std::uint32_t op, int l, std::int64_t arg,
                           int width) {
  int seg = l & ~(width - 1);
  switch (op) {
  case kShflIdx:
    return seg + (int)(arg & (width - 1));
  case kShflUp: {
    std::int64_t s = (std::int64_t)l - (std::int64_t)(std::uint32_t)arg;
    return s < seg ? l : (int)s;
  }
  case kShflDown: {
    std::int64_t s =
        (std::int64_t)(l & (width - 1)) + (std::int64_t)(std::uint32_t)arg;
    return s >= width ? l : l + (int)(std::uint32_t)arg;
  }
  case kShflXor: {
    std::int64_t s = (std::int64_t)l ^ (std::int64_t)(std::uint32_t)arg;
    return s >= seg + width ? l : (int)s;
  }
  default:
    return l;
  }
}

__attribute__((noinline)) static void
note_sync_partial(Warp &wp, std::uint64_t parts, std::uint32_t k) {
  if (wp.pair.empty())
    wp.pair.assign(64 * 64, 0);
  for (std::uint64_t a = parts; a; a &= a - 1) {
    int la = __builtin_ctzll(a);
    for (std::uint64_t b = parts; b; b &= b - 1)
      wp.pair[la * 64 + __builtin_ctzll(b)] = k;
  }
}

static inline void note_sync(Warp &wp, std::uint64_t parts) {
  std::uint32_t k = ++wp.coll_count;
  if (__builtin_expect(parts == wp.exists, 1)) {
    wp.last_full = k;
    return;
  }
  note_sync_partial(wp, parts, k);
}

// Shuffle results. Lane l reads the value of lane src(l) when that lane takes
// part, its own value when src(l) == l, and 0 otherwise (inactive or exited
// source lane).
template <std::uint32_t OP>
static inline void shfl_uniform(Warp &wp, std::uint64_t parts, std::int64_t arg,
                                int width) {
  const std::uint64_t *cv = wp.cval;
  std::uint64_t *cr = wp.cres;
  if (OP == kShflXor &&
      (std::uint64_t)(std::uint32_t)arg < (std::uint64_t)width &&
      (parts & (parts + 1)) == 0) {
    // Dense lanes 0..n-1 and an in-segment xor: src = l ^ arg, never outside
    // the segment.
    const int a = (int)arg;
    const int n = __builtin_popcountll(parts);
    if ((n & (n - 1)) == 0 &&
        a < n) {    // n a power of two: every l ^ a < n takes part
      if (n >= 2) { // lanes in pairs: (l, l+1) read (b, b^1) with b = l ^ a
        const int e = a & ~1, o = a & 1;
        for (int l = 0; l < n; l += 2) {
          const std::uint64_t x = cv[(l ^ e)], y = cv[(l ^ e) + 1];
          cr[l] = o ? y : x;
          cr[l + 1] = o ? x : y;
        }
        return;
      }
      for (int l = 0; l < n; ++l)
        cr[l] = cv[l ^ a];
      return;
    }
  }
  for (std::uint64_t m = parts; m; m &= m - 1) {
    const int l = __builtin_ctzll(m);
    const int src = shfl_src(OP, l, arg, width);
    cr[l] =
        ((parts >> src) & 1) ? cv[src] : 0; // src is in [0, 64): see shfl_src
  }
}

template <std::uint32_t OP>
static inline void shfl_lanes(Warp &wp, std::uint64_t parts) {
  for (std::uint64_t m = parts; m; m &= m - 1) {
    const int l = __builtin_ctzll(m);
    const int src = shfl_src(OP, l, wp.carg[l], wp.cwidth[l]);
    wp.cres[l] = ((parts >> src) & 1) ? wp.cval[src] : 0;
  }
}

// Whether every participant passed the same arg and width (the usual case).
static inline bool shfl_args_uniform(const Warp &wp, std::uint64_t parts) {
  const int l0 = __builtin_ctzll(parts);
  const std::int64_t a0 = wp.carg[l0];
  const int w0 = wp.cwidth[l0];
  bool same = true;
  const int n = __builtin_popcountll(parts);
  if ((parts & (parts + 1)) == 0 &&
      (n & 3) == 0) { // lanes 0..n-1, n a multiple of 4
    std::uint64_t d = 0;
    std::uint32_t dw = 0;
    for (int l = 0; l < n; l += 4) {
      d |= (std::uint64_t)((wp.carg[l] ^ a0) | (wp.carg[l + 1] ^ a0) |
                           (wp.carg[l + 2] ^ a0) | (wp.carg[l + 3] ^ a0));
      dw |= (std::uint32_t)((wp.cwidth[l] ^ w0) | (wp.cwidth[l + 1] ^ w0) |
                            (wp.cwidth[l + 2] ^ w0) | (wp.cwidth[l + 3] ^ w0));
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
static inline void shfl_complete(Warp &wp, std::uint64_t parts) {
  if (__builtin_expect(shfl_args_uniform(wp, parts), 1)) {
    const int l0 = __builtin_ctzll(parts);
    shfl_uniform<OP>(wp, parts, wp.carg[l0], wp.cwidth[l0]);
  } else {
    shfl_lanes<OP>(wp, parts);
  }
}

__attribute__((noinline)) static void complete(Worker &w, Warp &wp, Pending &s,
                                               Fiber *self) {
  const std::uint64_t parts = s.arrived;
  const std::uint32_t op = s.kind & 0xff;
  std::uint64_t *const cv = wp.cval;
  std::uint64_t *const cr = wp.cres;
  switch (op) {
  case kShflIdx:
    shfl_complete<kShflIdx>(wp, parts);
    break;
  case kShflUp:
    shfl_complete<kShflUp>(wp, parts);
    break;
  case kShflDown:
    shfl_complete<kShflDown>(wp, parts);
    break;
  case kShflXor:
    shfl_complete<kShflXor>(wp, parts);
    break;
  case kBallot:
  case kAny:
  case kAll: {
    std::uint64_t b = 0;
    for (std::uint64_t m = parts; m; m &= m - 1) {
      int l = __builtin_ctzll(m);
      if (cv[l])
        b |= 1ull << l;
    }
    std::uint64_t r = op == kBallot ? b : op == kAny ? (b != 0) : (b == parts);
    for (std::uint64_t m = parts; m; m &= m - 1)
      cr[__builtin_ctzll(m)] = r;
    break;
  }
  case kMatchAny:
    for (std::uint64_t m = parts; m; m &= m - 1) {
      const int k = __builtin_ctzll(m);
      std::uint64_t r = 0;
      for (std::uint64_t n = parts; n; n &= n - 1) {
        int l = __builtin_ctzll(n);
        if (cv[l] == cv[k])
          r |= 1ull << l;
      }
      cr[k] = r;
    }
    break;
  case kMatchAll: {
    bool same = true;
    std::uint64_t v0 = cv[__builtin_ctzll(parts)];
    for (std::uint64_t m = parts; m; m &= m - 1)
      same &= cv[__builtin_ctzll(m)] == v0;
    for (std::uint64_t m = parts; m; m &= m - 1)
      cr[__builtin_ctzll(m)] = same ? parts : 0;
    break;
  }
  case kReadFirst: {
    std::uint64_t v0 = cv[__builtin_ctzll(parts)];
    for (std::uint64_t m = parts; m; m &= m - 1)
      cr[__builtin_ctzll(m)] = v0;
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
  default:
    break; // kSyncWarp: nothing to compute
  }
  note_sync(wp, parts);
  // Re-queue the waiting lanes in lane order; each resets its own state when it
  // resumes.
  if ((parts & (parts + 1)) ==
      0) { // lanes 0..n-1 (the usual case): copy ranges of lanes[]
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
  Fiber **rq = w.rq.data();
  const std::uint32_t qm = w.rq_mask;
  std::uint32_t t = w.rq_tail;
  for (std::uint64_t m = parts; m; m &= m - 1) {
    Fiber *f = wp.lanes[__builtin_ctzll(m)];
    rq[t & qm] =
        f; // the slot at the tail is free: writing self there is harmless
    t += f != self;
  }
  w.rq_tail = t;
}

static void remove_slot(Warp &wp, Pending *s) {
  int i = (int)(s - wp.slots);
  wp.slots[i] = wp.slots[wp.nslots - 1];
  --wp.nslots;
}

// Where a collective is called, for reports.
struct CollLoc {
  const char *name;
  const char *file;
  int line;
};

[[noreturn]] __attribute__((noinline, cold)) static void
coll_outside(CollLoc at) {
  std::fprintf(stderr, "pkemu: error: %s called outside a kernel (%s:%d)\n",
               at.name, at.file, at.line);
  die_now();
}

__attribute__((noinline, cold)) static int coll_bad_width(Worker &w, int width,
                                                          CollLoc at) {
  std::string t =
      std::string(at.name) + " called with width " + std::to_string(width) +
      ", which is not a power of two <= the warp width " + std::to_string(w.W);
  error("invalid shuffle width", t.c_str(), at.file, at.line);
  return w.W;
}

static inline CollLoc loc_of(const Fiber *self) {
  return CollLoc{self->cname, self->wfile, self->wline};
}

[[noreturn]] __attribute__((noinline, cold)) static void
coll_bad_mask(Worker &w, Fiber *self, std::uint64_t mask, std::uint64_t m) {
  const CollLoc at = loc_of(self);
  Warp &wp = w.warps[self->warp];
  const char *name = at.name;
  if (!(m & (1ull << self->lane))) {
    std::string t = "thread " + std::to_string(self->lin) + " (lane " +
                    std::to_string(self->lane) + " of warp " +
                    std::to_string(self->warp) + ", block " +
                    block_str(w.bidx) + ", warp width " + std::to_string(w.W) +
                    ") calls " + name + " with mask " + hex64(mask) +
                    " that does not include its own lane";
    fatal_here(w, "warp collective with inconsistent participation", t, at.file,
               at.line);
  }
  std::string t = std::string(name) + " in block " + block_str(w.bidx) +
                  " with mask " + hex64(mask) + " names " +
                  describe_threads(lanes_to_lins(wp, m & wp.exited)) +
                  " which already exited; called by thread " +
                  std::to_string(self->lin);
  fatal_here(w, "warp collective with inconsistent participation", t, at.file,
             at.line);
}

[[noreturn]] __attribute__((noinline, cold)) static void
coll_conflict(Worker &w, Fiber *self, Pending &p, std::uint64_t m,
              bool overlap) {
  const CollLoc at = loc_of(self);
  Warp &wp = w.warps[self->warp];
  const char *name = at.name;
  std::string t;
  if (overlap)
    t = std::string(name) + " (mask " + hex64(m) + ") called by thread " +
        std::to_string(self->lin) + " of block " + block_str(w.bidx) +
        " while " + describe_threads(lanes_to_lins(wp, p.arrived)) +
        " waiting at " + p.name + " (mask " + hex64(p.mask) + ", " +
        loc(p.file, p.line) + ")";
  else
    t = "lanes of warp " + std::to_string(self->warp) + " in block " +
        block_str(w.bidx) + " reach different collectives: thread " +
        std::to_string(self->lin) + " calls " + name + " while " +
        describe_threads(lanes_to_lins(wp, p.arrived)) + " waiting at " +
        p.name + " (" + loc(p.file, p.line) + ")";
  fatal_here(w, "warp collective with inconsistent participation", t, at.file,
             at.line);
}

[[noreturn]] __attribute__((noinline, cold)) static void
coll_too_many(Worker &w, Fiber *self) {
  const CollLoc at = loc_of(self);
  fatal_here(w, "internal", "more warp collectives in flight than lanes",
             at.file, at.line);
}

// Waiting side of a collective (see barrier_wait): returns the lane's result
// once the last lane has completed the collective.
__attribute__((noinline)) static std::uint64_t
coll_wait(Worker &w, Fiber *self, const std::uint64_t *res) {
  switch_from<false>(w, self);
  self->state = kReady;
  return *res;
}

// Last arrival: compute every lane's result, re-queue the others, return this
// lane's result.
__attribute__((noinline)) static std::uint64_t
coll_finish(Worker &w, Warp &wp, Pending *s, Fiber *self) {
  complete(w, wp, *s, self);
  remove_slot(wp, s);
  return wp.cres[self->lane];
}

__attribute__((noinline, cold)) static std::uint64_t
coll_packed_fix_width(std::uint64_t kind_width, std::uint64_t mask,
                      std::uint64_t value, std::uint64_t arg_line,
                      const char *name, const char *file) {
  Worker &w = *t_worker;
  int width = coll_bad_width(w, (int)(std::uint32_t)(kind_width >> 32),
                             CollLoc{name, file, (int)(arg_line >> 32)});
  return coll_packed((std::uint32_t)kind_width |
                         (std::uint64_t)(std::uint32_t)width << 32,
                     mask, value, arg_line, name, file);
}

// Arrival of one lane. kPacked (coll_packed): this path only tail-calls
// (coll_wait, coll_finish, coll_packed_fix_width) or does not return (reports);
// all arguments are in registers, so it needs little or no stack frame, and a
// blocked fiber keeps only coll_wait's and the switch routine's frames on its
// stack.
template <bool kPacked>
__attribute__((always_inline)) static inline std::uint64_t
coll_arrive(std::uint32_t kind, std::uint64_t mask, std::uint64_t value,
            std::int64_t arg, int width, void *payload, CollFn fn, CollLoc at,
            std::uint64_t kind_width, std::uint64_t arg_line) {
  Worker *wptr = t_worker;
  Fiber *self;
  if (__builtin_expect(!wptr || !(self = wptr->cur), 0))
    coll_outside(at);
  Worker &w = *wptr;
  if (__builtin_expect(width <= 0 || width > w.W || (width & (width - 1)) != 0,
                       0)) {
    if (kPacked)
      return coll_packed_fix_width(kind_width, mask, value, arg_line, at.name,
                                   at.file);
    width = coll_bad_width(w, width, at);
  }
  // Record where this thread waits first: reports below read the location back
  // from `self`, so name, file and line need no registers for the rest of the
  // arrival.
  self->wfile = at.file;
  self->wline = at.line;
  self->cname = at.name;
  const std::uint32_t lane = self->lane;
  Warp &wp = w.warps[self->warp];
  wp.cval[lane] = value;
  wp.carg[lane] = arg;
  wp.cwidth[lane] = width;
  wp.cpayload[lane] = payload;
  const std::uint64_t bit = 1ull << lane;
  const bool sync = kind & kSyncForm;
  std::uint64_t m;
  if (sync) {
    m = mask & wp.exists;
    if (__builtin_expect(!(m & bit) || (m & wp.exited), 0))
      coll_bad_mask(w, self, mask, m);
  } else {
    m = wp.exists & ~wp.exited;
  }
  // A slot's key is its mask for *_sync forms (never 0: it holds the caller)
  // and 0 for the non-sync form, whose mask follows the live lanes.
  // Site-form collectives (kSiteForm) also match on the call site: lanes in
  // another branch wait at another site, in a collective of their own.
  const std::uint64_t key = sync ? m : 0;
  const bool site = kind & kSiteForm;
  Pending *s = nullptr;
  for (int i = 0, n = wp.nslots; i < n; ++i) {
    Pending &p = wp.slots[i];
    const bool p_site = p.kind & kSiteForm;
    if (p.key == key && p_site == site &&
        (!site || (p.line == at.line && p.file == at.file))) {
      s = &p;
      break;
    }
    // A site-form collective holds only the lanes that arrived (and this
    // lane is in no other collective).
    if (site)
      continue;
    // Two *_sync collectives deadlock at once when each waits for a lane
    // that waits in the other: a lane this one needs waits in a pending
    // collective that needs this lane. Otherwise the lanes of one may come
    // to the other next (the two sides of a binary_partition, each reducing
    // over its own lanes, then a collective of the whole tile), and a
    // longer cycle of waits is found when no fiber can run (a deadlock
    // report).
    const bool sync_pair = sync && !p_site && !p.live_form;
    if (__builtin_expect(sync_pair ? (p.arrived & m) != 0 && (p.mask & bit) != 0
                                   : ((p_site ? p.arrived : p.mask) & m) != 0,
                         0))
      coll_conflict(w, self, p, m, true);
  }
  if (s) {
    if (__builtin_expect(s->kind != kind || s->fn != fn, 0))
      coll_conflict(w, self, *s, m, false);
  } else {
    // Every pending collective holds an arrived lane other than this one
    // (which waits in none): fewer than 64 are pending here.
    if (__builtin_expect(wp.nslots == 64, 0))
      coll_too_many(w, self);
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
  if (s->arrived == s->mask)
    return coll_finish(w, wp, s, self);
  self->state = kAtColl;
  return coll_wait(w, self, &wp.cres[lane]);
}

__attribute__((noinline)) static std::uint64_t
coll_packed_slow(std::uint64_t kind_width, std::uint64_t mask,
                 std::uint64_t value, std::uint64_t arg_line, const char *name,
                 const char *file) {
  return coll_arrive<true>(
      (std::uint32_t)kind_width, mask, value,
      (std::int64_t)(std::uint32_t)arg_line,
      (int)(std::uint32_t)(kind_width >> 32), nullptr, nullptr,
      CollLoc{name, file, (int)(std::uint32_t)(arg_line >> 32)}, kind_width,
      arg_line);
}

// coll_packed's fast path already stored the operands and the call location
// (see below): read them back and take the general path.
__attribute__((noinline)) static std::uint64_t
coll_packed_redo(Fiber *self, Warp &wp, std::uint64_t kind_width,
                 std::uint64_t mask) {
  const std::uint32_t lane = self->lane;
  const std::uint64_t arg_line =
      (std::uint32_t)wp.carg[lane] | (std::uint64_t)(std::uint32_t)self->wline
                                         << 32;
  return coll_packed_slow(kind_width, mask, wp.cval[lane], arg_line,
                          self->cname, self->wfile);
}

// First lane of a collective in a warp with none pending: open slot 0, then as
// coll_packed.
__attribute__((noinline)) static std::uint64_t
coll_open(Worker &w, Warp &wp, Fiber *self, std::uint32_t kind, std::uint64_t m,
          std::uint64_t key) {
  Pending *s = &wp.slots[0];
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
  if (s->arrived == m)
    return coll_finish(w, wp, s, self);
  self->state = kAtColl;
  return coll_wait(w, self, &wp.cres[self->lane]);
}

// Fast path of coll_packed for the common cases: a valid width and mask, and
// either no collective pending in the warp (this lane opens one) or exactly one
// of the same form, mask and kind (this lane joins it). Everything else
// (reports, several collectives in flight) goes to the general path, which
// performs the same steps with all the checks. The operands and the call
// location are stored first (this lane takes part in no pending collective and
// is not blocked, so nobody reads them before this call ends), which keeps few
// values in registers.
std::uint64_t coll_packed(std::uint64_t kind_width, std::uint64_t mask,
                          std::uint64_t value, std::uint64_t arg_line,
                          const char *name, const char *file) {
  Worker *wptr = t_worker;
  Fiber *self;
  if (__builtin_expect(!wptr || !(self = wptr->cur), 0))
    return coll_packed_slow(kind_width, mask, value, arg_line, name, file);
  Worker &w = *wptr;
  const std::uint32_t lane = self->lane;
  Warp &wp = w.warps[self->warp];
  const int width = (int)(std::uint32_t)(kind_width >> 32);
  wp.cval[lane] = value;
  wp.carg[lane] = (std::int64_t)(std::uint32_t)arg_line;
  wp.cwidth[lane] = width;
  self->wfile = file;
  self->wline = (int)(std::uint32_t)(arg_line >> 32);
  self->cname = name;
  if (__builtin_expect(width <= 0 || width > w.W || (width & (width - 1)) != 0,
                       0))
    return coll_packed_redo(self, wp, kind_width, mask);
  const std::uint32_t kind = (std::uint32_t)kind_width;
  const std::uint64_t bit = 1ull << lane;
  std::uint64_t m, key;
  if (kind & kSyncForm) {
    m = key = mask & wp.exists;
    if (__builtin_expect(!(m & bit) || (m & wp.exited), 0))
      return coll_packed_redo(self, wp, kind_width, mask);
  } else {
    m = wp.exists & ~wp.exited;
    key = 0;
  }
  const int ns = wp.nslots;
  if (ns == 0)
    return coll_open(w, wp, self, kind, m, key);
  Pending *s = &wp.slots[0];
  if (__builtin_expect(
          ns > 1 || s->key != key || s->kind != kind || s->fn != nullptr ||
              ((kind & kSiteForm) &&
               (s->line != self->wline || s->file != file)),
          0))
    return coll_packed_redo(self, wp, kind_width, mask);
  if ((s->arrived |= bit) == s->mask)
    return coll_finish(w, wp, s, self);
  self->state = kAtColl;
  return coll_wait(w, self, &wp.cres[lane]);
}

std::uint64_t coll(std::uint32_t kind, std::uint64_t mask, std::uint64_t value,
                   std::int64_t arg, int width, void *payload, CollFn fn,
                   const char *name, const char *file, int line) {
  return coll_arrive<false>(kind, mask, value, arg, width, payload, fn,
                            CollLoc{name, file, line}, 0, 0);
}

// Nobody can run.  A non-_sync collective (HIP, legacy CUDA) runs on the lanes
// that are active: lanes that diverged to __syncthreads or to another non-_sync
// collective are not.  When every lane a pending non-_sync collective still
// waits for is at a barrier, in another non-_sync collective (or exited),
// complete it for the lanes that arrived, as the hardware does (reading an
// inactive lane yields 0).  Returns whether fibers became ready.
bool complete_divergent(Worker &w) {
  bool progressed = false;
  for (std::uint32_t wi = 0; wi < w.warps.size(); ++wi) {
    Warp &wp = w.warps[wi];
    for (int i = 0; i < wp.nslots; ++i) {
      Pending &p = wp.slots[i];
      if (!p.live_form || !p.arrived)
        continue;
      // Lanes waiting in another non-_sync collective of this warp took
      // another branch: they are inactive here too.
      std::uint64_t elsewhere = 0;
      for (int j = 0; j < wp.nslots; ++j)
        if (j != i && wp.slots[j].live_form)
          elsewhere |= wp.slots[j].arrived;
      bool others_at_barrier = true;
      for (std::uint64_t m = p.mask & ~p.arrived; m; m &= m - 1) {
        Fiber *f = wp.lanes[__builtin_ctzll(m)];
        if (f->state != kAtBarrier &&
            !(f->state == kAtColl && (elsewhere >> f->lane & 1))) {
          others_at_barrier = false;
          break;
        }
      }
      if (!others_at_barrier)
        continue;
      p.mask = p.arrived;
      complete(w, wp, p, nullptr);
      remove_slot(wp, &p);
      progressed = true;
      --i;
    }
  }
  return progressed;
}

// A lane exited while its warp has collectives in flight (on_lane_exit in
// internal.h marked it exited): pending non-sync collectives may now be
// complete, sync ones are broken.
void on_lane_exit_pending(Worker &w, Warp &wp, Fiber *self) {
  const std::uint64_t bit = 1ull << self->lane;
  for (int i = 0; i < wp.nslots; ++i) {
    Pending &p = wp.slots[i];
    if (!(p.mask & bit))
      continue;
    if (!p.live_form) {
      std::string t = "thread " + std::to_string(self->lin) + " of block " +
                      block_str(w.bidx) + " exited while " +
                      describe_threads(lanes_to_lins(wp, p.arrived)) +
                      " waiting at " + p.name + " with mask " + hex64(p.mask) +
                      " that includes it";
      fatal_here(w, "warp collective with inconsistent participation", t,
                 p.file, p.line);
    }
    p.mask &= ~bit;
    if (p.arrived == p.mask && p.mask) {
      complete(w, wp, p, self);
      remove_slot(wp, &p);
      --i;
    }
  }
}

} // namespace detail
} // namespace pkemu
