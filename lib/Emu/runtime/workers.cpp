//===- workers.cpp - configuration, worker threads, launches, watchdog ----===//
// Rules: none (emulator runtime)
//
// Blocks of a launch are handed out to worker threads (the launching thread is
// one of them) through an atomic counter; launches are synchronous. A watchdog
// thread reports a launch that runs past PKEMU_TIMEOUT_S. The environment
// (PKEMU_WARP_SIZE, PKEMU_TIMEOUT_S, PKEMU_STACK_KB, PKEMU_WORKERS) is read
// once, at the first launch.
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <thread>

#include "internal.h"

namespace pkemu {
namespace detail {

std::atomic<LaunchCtx *> g_active_launch{nullptr};
std::vector<Worker *> &g_workers = *new std::vector<Worker *>;

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

void worker_loop(Worker &w, LaunchCtx &L) {
  prepare_launch(w, L);
  for (;;) {
    std::uint64_t b = L.next.fetch_add(1, std::memory_order_relaxed);
    if (b >= L.nblocks)
      break;
    run_block(w, L, b);
  }
  w.block_pub.store(-1, std::memory_order_relaxed);
  w.L = nullptr;
}

void pool_thread(Worker *w) {
  t_worker = w;
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

void watchdog() {
  for (;;) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    LaunchCtx *L = g_active_launch.load(std::memory_order_acquire);
    double to = config().timeout_s;
    if (!L || to <= 0)
      continue;
    auto now =
        (std::uint64_t)std::chrono::duration_cast<std::chrono::nanoseconds>(
            std::chrono::steady_clock::now().time_since_epoch())
            .count();
    std::uint64_t st = L->start_ns.load(std::memory_order_relaxed);
    if (!st || now - st < (std::uint64_t)(to * 1e9))
      continue;
    std::string text = "kernel did not finish within " +
                       std::to_string((int)to) +
                       " s (PKEMU_TIMEOUT_S); it probably hangs.";
    for (Worker *w : g_workers) {
      std::int64_t b = w->block_pub.load(std::memory_order_relaxed);
      Fiber *f = w->cur_pub.load(std::memory_order_relaxed);
      if (b < 0 || !f)
        continue;
      const dim3 g = L->a.grid;
      uint3 bi{(unsigned)(b % g.x), (unsigned)((b / g.x) % g.y),
               (unsigned)(b / ((std::int64_t)g.x * g.y))};
      text += " Block " + block_str(bi) + ": thread " + std::to_string(f->lin) +
              " (threadIdx " + block_str(f->tid) + ") is running;";
    }
    Report r;
    r.kind = "timeout";
    r.kernel = L->a.fn;
    r.text = text;
    add_report(std::move(r));
    die_now();
  }
}

Worker *new_worker(int id) {
  Worker *w = new Worker();
  w->id = id;
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
  std::thread(watchdog).detach();
}

} // namespace

void run_launch(const LaunchArgs &a, std::uint32_t nthreads) {
  std::call_once(g_pool_once, start_pool);
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
  L.start_ns.store(
      (std::uint64_t)std::chrono::duration_cast<std::chrono::nanoseconds>(
          std::chrono::steady_clock::now().time_since_epoch())
          .count());
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
  flush_reports();
}

} // namespace detail
} // namespace pkemu
