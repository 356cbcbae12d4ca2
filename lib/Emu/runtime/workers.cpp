//===- workers.cpp - configuration, worker threads, launches, watchdog ----===//
// Rules: none (emulator runtime)
//
// Blocks of a launch are handed out to worker threads (the launching thread is
// one of them) through an atomic counter; launches are synchronous. A worker
// thread holds several resident blocks when its blocks spin (they may wait for
// each other), up to what the emulated device holds at once. A watchdog
// thread reports a launch that runs past PKEMU_TIMEOUT_S. The environment
// (PKEMU_WARP_SIZE, PKEMU_TIMEOUT_S, PKEMU_STACK_KB, PKEMU_WORKERS) is read
// once, at the first launch; PKEMU_LINE_BUFFERED=1 makes stdout line-buffered
// at start-up. PKEMU_STATS_FILE names a file that the launches' totals are
// kept in (launch_stats).
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <thread>

#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <ucontext.h>
#include <unistd.h>

#include "internal.h"
#include "pkemu/host_api.h"

namespace {
/// PKEMU_LINE_BUFFERED=1 (validate --stop-at, which reads a program's output
/// as it comes): stdout is line-buffered from the start, as on a terminal.
__attribute__((constructor)) void line_buffered_stdout() {
  const char *e = std::getenv("PKEMU_LINE_BUFFERED");
  if (e && e[0] == '1')
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
}
} // namespace

namespace pkemu {
namespace detail {

std::atomic<LaunchCtx *> g_active_launch{nullptr};
std::atomic<std::uint64_t> g_progress{0};
std::vector<Worker *> &g_workers = *new std::vector<Worker *>;
std::mutex &g_workers_mu = *new std::mutex;

// ---------------------------------------------------------------------------------------------
// Configuration.
namespace {

int g_tu_default_warp = 0;
int g_tu_lang_hip = 0;

Config g_cfg;
std::once_flag g_cfg_once;

void init_config() {
  Config c;
  int dflt = g_tu_default_warp ? g_tu_default_warp : (g_tu_lang_hip ? 64 : 32);
  c.warp = dflt;
  if (const char *e = std::getenv("PKEMU_WARP_SIZE")) {
    int v = std::atoi(e);
    if (v == 32 || v == 64)
      c.warp = v;
    else
      std::fprintf(
          stderr,
          "pkemu: warning: ignoring PKEMU_WARP_SIZE=%s (must be 32 or 64)\n",
          e);
  }
  if (const char *e = std::getenv("PKEMU_TIMEOUT_S"))
    c.timeout_s = std::atof(e);
  if (const char *e = std::getenv("PKEMU_STACK_KB")) {
    long v = std::atol(e);
    if (v >= 16)
      c.stack_kb = (std::size_t)v;
  }
  unsigned hc = std::thread::hardware_concurrency();
  c.workers = hc ? (int)hc : 2;
  if (const char *e = std::getenv("PKEMU_WORKERS")) {
    int v = std::atoi(e);
    if (v >= 1)
      c.workers = v;
  }
  g_cfg = c;
  ::warpSize = c.warp;
}

} // namespace

const Config &config() {
  std::call_once(g_cfg_once, init_config);
  return g_cfg;
}

void register_translation_unit(int default_warp, int lang_hip) {
  if (default_warp == 32 || default_warp == 64)
    g_tu_default_warp = default_warp;
  if (lang_hip)
    g_tu_lang_hip = 1;
  // warpSize must be right during static initialisation of the program already.
  int w = g_tu_default_warp ? g_tu_default_warp : (g_tu_lang_hip ? 64 : 32);
  if (const char *e = std::getenv("PKEMU_WARP_SIZE")) {
    int v = std::atoi(e);
    if (v == 32 || v == 64)
      w = v;
  }
  ::warpSize = w;
}

// ---------------------------------------------------------------------------------------------
// Worker pool and launches.
namespace {
// Never destroyed: pool threads may still wait on them while the process exits.
std::mutex &g_pool_mu = *new std::mutex;
std::condition_variable &g_pool_cv = *new std::condition_variable;
std::condition_variable &g_done_cv = *new std::condition_variable;
std::uint64_t g_generation = 0;
int g_running = 0;
LaunchCtx *g_pool_launch = nullptr;
std::once_flag g_pool_once;
std::mutex &g_launch_mu = *new std::mutex;

// How long nothing may change before a deadlock is reported.
constexpr std::uint64_t kDeadlockNs = 1000000000ull;

// Claims the next block if the device has room for another resident block.
bool claim_block(LaunchCtx &L, std::uint64_t &b) {
  if (L.stopped.load(std::memory_order_relaxed))
    return false;
  std::uint64_t r = L.resident.load(std::memory_order_relaxed);
  do {
    if (r >= L.max_resident)
      return false;
  } while (
      !L.resident.compare_exchange_weak(r, r + 1, std::memory_order_relaxed));
  b = L.next.fetch_add(1, std::memory_order_relaxed);
  if (b < L.nblocks)
    return true;
  L.resident.fetch_sub(1, std::memory_order_relaxed);
  return false;
}

// The block scheduler of one worker thread. A block normally runs to
// completion; a block suspended at a spin point (it may wait for another
// block) stays resident, and the thread starts another block while the device
// has room, or else resumes its suspended blocks in turn. A block that waits
// for one that can never become resident (more blocks than fit on the device)
// or for a write nobody makes never finishes: the watchdog reports it.
void worker_loop(Worker &w, LaunchCtx &L) {
  prepare_launch(w, L);
  pkemu_t_effects = 0;
  std::vector<Worker *> free_slots{&w}; // Workers without a block
  std::size_t used_extra = 0;
  std::vector<Worker *> suspended;
  std::size_t turn = 0;
  for (;;) {
    std::uint64_t b;
    Worker *v = nullptr;
    bool done;
    if (claim_block(L, b)) {
      if (free_slots.empty()) {
        if (used_extra == w.extra.size()) {
          std::lock_guard<std::mutex> lk(g_workers_mu);
          Worker *x = new Worker();
          x->id = (int)g_workers.size();
          g_workers.push_back(x);
          w.extra.push_back(x);
        }
        Worker *x = w.extra[used_extra++];
        prepare_launch(*x, L);
        free_slots.push_back(x);
      }
      v = free_slots.back();
      free_slots.pop_back();
      w.progress.store(w.progress.load(std::memory_order_relaxed) + 1,
                       std::memory_order_relaxed);
      done = start_block(*v, L, b);
    } else if (!suspended.empty()) {
      // Nothing to start: let the other worker threads run, then resume the
      // next suspended block.
      if (turn >= suspended.size())
        turn = 0;
      v = suspended[turn];
      suspended.erase(suspended.begin() + turn);
      std::this_thread::yield();
      done = resume_block(*v);
    } else {
      break;
    }
    if (done) {
      L.finished.fetch_add(1, std::memory_order_release);
      w.progress.store(w.progress.load(std::memory_order_relaxed) + 1,
                       std::memory_order_relaxed);
      L.resident.fetch_sub(1, std::memory_order_relaxed);
      free_slots.push_back(v);
    } else {
      suspended.insert(suspended.begin() + std::min(turn, suspended.size()), v);
      ++turn;
    }
  }
  if (pkemu_t_effects)
    L.effects.store(true, std::memory_order_relaxed);
  for (std::size_t i = 0; i < used_extra; ++i) {
    w.extra[i]->block_pub.store(-1, std::memory_order_relaxed);
    w.extra[i]->L = nullptr;
  }
  w.block_pub.store(-1, std::memory_order_relaxed);
  w.L = nullptr;
}

void pool_thread(Worker *w) {
  t_worker = w;
  memory_map_thread();
  std::uint64_t seen = 0;
  for (;;) {
    LaunchCtx *L;
    {
      std::unique_lock<std::mutex> lk(g_pool_mu);
      g_pool_cv.wait(lk, [&] { return g_generation != seen; });
      seen = g_generation;
      L = g_pool_launch;
    }
    worker_loop(*w, *L);
    {
      std::lock_guard<std::mutex> lk(g_pool_mu);
      if (--g_running == 0)
        g_done_cv.notify_all();
    }
  }
}

std::string block_of(const LaunchCtx &L, std::int64_t b) {
  const dim3 g = L.a.grid;
  return block_str(uint3{(unsigned)(b % g.x), (unsigned)((b / g.x) % g.y),
                         (unsigned)(b / ((std::int64_t)g.x * g.y))});
}

// What the resident blocks do (the timeout and deadlock reports): blocks
// whose threads run, blocks suspended at a spin point, and why the grid
// cannot finish when every resident block spins.
void describe_blocks(const LaunchCtx *L, std::string &text, void *&spin_pc,
                     bool quiet) {
  std::vector<std::string> spinning;
  {
    std::lock_guard<std::mutex> lk(g_workers_mu);
    for (Worker *w : g_workers) {
      std::int64_t b = w->block_pub.load(std::memory_order_relaxed);
      Fiber *f = w->cur_pub.load(std::memory_order_relaxed);
      if (b < 0 || !f)
        continue;
      if (quiet || w->spin_pub.load(std::memory_order_relaxed)) {
        spinning.push_back(block_of(*L, b));
        if (!spin_pc)
          spin_pc = w->spin_pc.load(std::memory_order_relaxed);
        continue;
      }
      text += " Block " + block_of(*L, b) + ": thread " +
              std::to_string(f->lin) + " (threadIdx " + block_str(f->tid) +
              ") is running;";
    }
  }
  if (spinning.empty())
    return;
  std::uint64_t started =
      std::min(L->next.load(std::memory_order_relaxed), L->nblocks);
  std::uint64_t resident = L->resident.load(std::memory_order_relaxed);
  std::uint64_t done = started - std::min(started, resident);
  text += " " + std::to_string(spinning.size()) + " resident block" +
          (spinning.size() == 1 ? "" : "s") + " (";
  for (std::size_t i = 0; i < spinning.size() && i < 8; ++i)
    text += (i ? ", " : "") + spinning[i];
  if (spinning.size() > 8)
    text += ", ...";
  text += std::string(spinning.size() == 1 ? ") keeps" : ") keep") +
          " spinning on atomics, volatile accesses or fences "
          "(first at {pc0}), waiting for a write that no running block "
          "makes; " +
          std::to_string(done) + " of the grid's " +
          std::to_string(L->nblocks) + " blocks finished and " +
          std::to_string(L->nblocks - started) + " never started.";
  if (started < L->nblocks && resident >= L->max_resident)
    text += " The emulated device holds at most " +
            std::to_string(L->max_resident) + " resident blocks of " +
            std::to_string(L->nthreads) +
            " threads (multiProcessorCount x "
            "cudaOccupancyMaxActiveBlocksPerMultiprocessor): blocks that "
            "wait on each other deadlock unless the whole grid is "
            "resident at once.";
  else
    text += " No block that has not run yet can write it: the program "
            "deadlocks.";
}

[[noreturn]] void report_and_die(const LaunchCtx *L, const char *kind,
                                 std::string text, void *pc) {
  Report r;
  r.kind = kind;
  r.kernel = L->a.fn;
  r.text = std::move(text);
  r.pcs[0] = pc;
  add_report(std::move(r));
  die_now();
}

// A thread that loops without a memory access, barrier or spin point keeps
// its registers. The watchdog samples the registers of the threads that run
// a block (a signal; the handler copies them) and reports a thread whose
// registers stay the same for a second: it can never see another thread's
// write.
#if defined(__x86_64__)
constexpr int kSampleWords = 17 + 32; // r8..rip, xmm0..xmm15
static_assert(sizeof(Worker::wd_regs) == kSampleWords * 8, "sample size");
struct Sample {
  std::uint64_t regs[kSampleWords];
  std::atomic<std::uint64_t> seq{0};
};
Sample g_sample;
int g_sample_sig = 0;

void sample_handler(int, siginfo_t *, void *ctx) {
  auto *uc = static_cast<ucontext_t *>(ctx);
  for (int i = 0; i <= REG_RIP; ++i)
    g_sample.regs[i] = (std::uint64_t)uc->uc_mcontext.gregs[i];
  if (uc->uc_mcontext.fpregs)
    std::memcpy(&g_sample.regs[17], uc->uc_mcontext.fpregs->_xmm,
                32 * sizeof(std::uint64_t));
  g_sample.seq.fetch_add(1, std::memory_order_release);
}

void install_sampler() {
  g_sample_sig = SIGRTMIN + 3;
  struct sigaction sa;
  std::memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = sample_handler;
  sa.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&sa.sa_mask);
  if (sigaction(g_sample_sig, &sa, nullptr) != 0)
    g_sample_sig = 0;
}

// Registers of the thread that runs w's block, or false.
bool sample_thread(Worker &w, std::uint64_t *regs) {
  unsigned long t = w.os_thread.load(std::memory_order_relaxed);
  if (!g_sample_sig || !t)
    return false;
  std::uint64_t seq = g_sample.seq.load(std::memory_order_acquire);
  if (pthread_kill((pthread_t)t, g_sample_sig) != 0)
    return false;
  for (int i = 0; i < 2000; ++i) {
    if (g_sample.seq.load(std::memory_order_acquire) != seq) {
      std::memcpy(regs, g_sample.regs, sizeof g_sample.regs);
      return true;
    }
    std::this_thread::sleep_for(std::chrono::microseconds(10));
  }
  return false;
}

bool in_program(std::uint64_t pc) {
  Dl_info a, b;
  return dladdr((void *)pc, &a) && dladdr((void *)&g_progress, &b) &&
         a.dli_fbase == b.dli_fbase;
}
#else
void install_sampler() {}
#endif

void stats_tick(std::uint64_t now);

void watchdog() {
  const LaunchCtx *last_L = nullptr;
  std::uint64_t last_progress = 0, quiet_since = 0;
  for (;;) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    LaunchCtx *L = g_active_launch.load(std::memory_order_acquire);
    if (!L)
      continue;
    auto now = now_ns();
    stats_tick(now);
    std::uint64_t st = L->start_ns.load(std::memory_order_relaxed);
    double to = config().timeout_s;
    if (st && to > 0 && now - st >= (std::uint64_t)(to * 1e9)) {
      // Blocks that finished tell a slow kernel from one that hangs.
      const std::uint64_t done = L->finished.load(std::memory_order_relaxed);
      std::string text = "kernel did not finish within " +
                         std::to_string((int)to) + " s (PKEMU_TIMEOUT_S)";
      if (done)
        text += ": " + std::to_string(done) + " of " +
                std::to_string(L->nblocks) +
                " blocks finished, so at this pace it needs about " +
                std::to_string(
                    (std::uint64_t)(to * (double)L->nblocks / (double)done)) +
                " s; run it at a smaller size or with a longer limit.";
      else
        text += "; no block finished: it hangs, or each block runs longer "
                "than that.";
      void *spin_pc = nullptr;
      describe_blocks(L, text, spin_pc, false);
      report_and_die(L, "timeout", text, spin_pc);
    }
    // Deadlock: for a whole second no block started or finished and every
    // resident block kept being suspended at the same spin point polling a
    // location whose value did not change.
    std::uint64_t p = g_progress.load(std::memory_order_relaxed);
    {
      std::lock_guard<std::mutex> lk(g_workers_mu);
      for (Worker *w : g_workers)
        p += w->progress.load(std::memory_order_relaxed);
    }
    if (L != last_L || p != last_progress) {
      last_L = L;
      last_progress = p;
      quiet_since = now;
      std::lock_guard<std::mutex> lk(g_workers_mu);
      for (Worker *w : g_workers)
        w->wd_suspends = w->spin_suspends.load(std::memory_order_relaxed);
    } else if (now - quiet_since >= kDeadlockNs) {
      int resident = 0;
      bool all_wait = true;
      {
        std::lock_guard<std::mutex> lk(g_workers_mu);
        for (Worker *w : g_workers) {
          if (w->block_pub.load(std::memory_order_relaxed) < 0 ||
              !w->cur_pub.load(std::memory_order_relaxed))
            continue;
          ++resident;
          if (w->spin_suspends.load(std::memory_order_relaxed) <=
                  w->wd_suspends ||
              w->spin_same.load(std::memory_order_relaxed) < 2)
            all_wait = false;
        }
      }
      if (resident && all_wait) {
        std::string text =
            "no thread can make progress: for 1 s every resident block "
            "polled the same location at the same spin point and read the "
            "same value, and no block started or finished.";
        void *spin_pc = nullptr;
        describe_blocks(L, text, spin_pc, true);
        report_and_die(L, "deadlock", text, spin_pc);
      }
    }
#if defined(__x86_64__)
    // Threads that do not yield: sample their registers.
    if (!st || now - st < kDeadlockNs / 2)
      continue;
    std::vector<Worker *> ws;
    {
      std::lock_guard<std::mutex> lk(g_workers_mu);
      ws = g_workers;
    }
    for (Worker *w : ws) {
      const Fiber *f = w->cur_pub.load(std::memory_order_relaxed);
      if (w->block_pub.load(std::memory_order_relaxed) < 0 || !f ||
          w->spin_pub.load(std::memory_order_relaxed)) {
        w->wd_same = 0;
        continue;
      }
      std::uint64_t regs[kSampleWords];
      if (!sample_thread(*w, regs) || !in_program(regs[REG_RIP]) ||
          w->cur_pub.load(std::memory_order_relaxed) != f ||
          w->spin_pub.load(std::memory_order_relaxed)) {
        w->wd_same = 0;
        continue;
      }
      // The block must not have reached a spin point either (a polling
      // loop that yields is the deadlock check's).
      std::uint64_t sus = w->spin_suspends.load(std::memory_order_relaxed);
      if (f == w->wd_fiber && sus == w->wd_sample_suspends &&
          !std::memcmp(regs, w->wd_regs, sizeof regs)) {
        ++w->wd_same;
      } else {
        w->wd_same = 0;
        w->wd_fiber = f;
        w->wd_sample_suspends = sus;
        std::memcpy(w->wd_regs, regs, sizeof regs);
      }
      if (w->wd_same * 50 * 1000000ull >= kDeadlockNs) {
        std::int64_t b = w->block_pub.load(std::memory_order_relaxed);
        std::string text =
            "thread " + std::to_string(f->lin) + " (threadIdx " +
            block_str(f->tid) + ") of block " + block_of(*L, b) +
            " loops at {pc0} without reading memory, reaching a barrier, an "
            "atomic, a fence or a volatile access: its registers stayed the "
            "same for 1 s, so it cannot see another thread's write and never "
            "finishes. A polling loop on plain memory (while (flag[0] == 0) "
            "{}) is a data race in CUDA and HIP: the compiler reads the flag "
            "once and the loop hangs on a GPU too; declare the flag volatile, "
            "read it with an atomic, or put __threadfence() in the loop.";
        // +1: the report symbolizes return addresses at pc - 1.
        report_and_die(L, "deadlock", text, (void *)(regs[REG_RIP] + 1));
      }
    }
#endif
  }
}

Worker *new_worker(int id) {
  Worker *w = new Worker();
  w->id = id;
  std::lock_guard<std::mutex> lk(g_workers_mu);
  g_workers.push_back(w);
  return w;
}

void start_pool() {
  const Config &c = config();
  Worker *host = new_worker(0);
  t_worker = host;
  for (int i = 1; i < c.workers; ++i) {
    Worker *w = new_worker(i);
    std::thread(pool_thread, w).detach();
  }
  install_sampler();
  std::thread(watchdog).detach();
}

// Launch statistics, for PKEMU_STATS_FILE: the launches, their threads and
// the wall time spent in them, so that a program's time splits into its
// kernels and the rest (its host code). The file holds one line,
//   pkemu-stats launches N threads T kernel_s S [running_s R]
// rewritten after a launch at most every 20 ms, by the watchdog every 250 ms
// while a launch runs (R: how long the launch in flight has run; N, T and S
// count finished launches) and at exit: a run that is killed (validate
// --stop-at, a timeout) in the middle of a long launch still shows where its
// time went.
struct LaunchStats {
  std::uint64_t launches = 0, threads = 0, ns = 0, written_ns = 0;
  std::uint64_t running_since = 0; // start of the launch in flight, or 0
  int fd = -1;
  bool init = false;
};
std::mutex g_stats_mu; // guards g_stats (launches and the watchdog)
LaunchStats g_stats;

void stats_write(LaunchStats &s, std::uint64_t now) {
  char buf[160];
  int n = std::snprintf(
      buf, sizeof buf,
      "pkemu-stats launches %llu threads %llu kernel_s %.6f replayed %llu",
      (unsigned long long)s.launches, (unsigned long long)s.threads, s.ns / 1e9,
      (unsigned long long)replayed_launches());
  if (n > 0 && s.running_since && now > s.running_since)
    n += std::snprintf(buf + n, sizeof buf - (std::size_t)n, " running_s %.6f",
                       (now - s.running_since) / 1e9);
  if (n > 0 && (std::size_t)n < sizeof buf - 1) {
    buf[n++] = '\n';
    if (::pwrite(s.fd, buf, (std::size_t)n, 0) == n)
      (void)!::ftruncate(s.fd, n);
  }
}

void stats_at_exit() {
  std::lock_guard<std::mutex> lk(g_stats_mu);
  if (g_stats.fd >= 0)
    stats_write(g_stats, now_ns());
}

void launch_started(std::uint64_t start) {
  std::lock_guard<std::mutex> lk(g_stats_mu);
  LaunchStats &s = g_stats;
  if (!s.init) {
    s.init = true;
    const char *p = std::getenv("PKEMU_STATS_FILE");
    if (p && *p) {
      s.fd = ::open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
      if (s.fd >= 0) {
        std::atexit(stats_at_exit);
        s.written_ns = start;
      }
    }
  }
  s.running_since = start;
}

// The watchdog, every tick: a launch that has run 250 ms since the last
// write shows in the file.
void stats_tick(std::uint64_t now) {
  std::lock_guard<std::mutex> lk(g_stats_mu);
  LaunchStats &s = g_stats;
  if (s.fd >= 0 && s.running_since && now - s.written_ns >= 250000000) {
    s.written_ns = now;
    stats_write(s, now);
  }
}

void launch_stats(std::uint64_t start, std::uint64_t end,
                  std::uint64_t threads) {
  std::lock_guard<std::mutex> lk(g_stats_mu);
  LaunchStats &s = g_stats;
  s.running_since = 0;
  ++s.launches;
  s.threads += threads;
  s.ns += end - start;
  if (s.fd >= 0 && end - s.written_ns >= 20000000) {
    s.written_ns = end;
    stats_write(s, end);
  }
}

} // namespace

void run_launch(const LaunchArgs &a, std::uint32_t nthreads) {
  std::call_once(g_pool_once, start_pool);
  memory_map_thread();
  std::lock_guard<std::mutex> lg(g_launch_mu);
  Worker *self = t_worker;
  if (!self) {
    // Launch from a host thread other than the first one: give it its own
    // worker.
    static std::mutex mu;
    std::lock_guard<std::mutex> lk(mu);
    self = new_worker((int)g_workers.size());
    t_worker = self;
  }
  if (self->cur) {
    std::fprintf(
        stderr,
        "pkemu: error: kernel launch from device code is not supported\n");
    die_now();
  }
  LaunchCtx L;
  L.a = a;
  L.nthreads = nthreads;
  L.W = config().warp;
  L.nblocks = (std::uint64_t)a.grid.x * a.grid.y * a.grid.z;
  L.max_resident = std::max<std::uint64_t>(
      (std::uint64_t)api::multiprocessor_count() *
          api::max_active_blocks((int)nthreads, a.shmem),
      (std::uint64_t)config().workers);
  const std::uint64_t start = now_ns();
  ReplayTicket ticket;
  if (replay_before(a, L.W, ticket)) {
    launch_stats(start, now_ns(), L.nblocks * nthreads);
    return;
  }
  const std::uint64_t reports = report_count();
  L.start_ns.store(start);
  launch_started(start);
  g_active_launch.store(&L, std::memory_order_release);
  int helpers =
      (int)std::min<std::uint64_t>(L.nblocks, (std::uint64_t)config().workers) -
      1;
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
  const std::uint64_t end = now_ns();
  replay_after(ticket, L.effects.load(std::memory_order_relaxed),
               report_count() != reports, end - start);
  launch_stats(start, end, L.nblocks * nthreads);
  flush_reports();
}

} // namespace detail
} // namespace pkemu
