// Internal data structures of the pkemu runtime (not installed, not seen by emulated programs).
#pragma once
#include <atomic>
#include <boost/context/detail/fcontext.hpp>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "pkemu/runtime.h"

namespace pkemu {
namespace detail {

namespace bctx = boost::context::detail;

// Context switching. On x86-64 a minimal switch (callee-saved registers only, the FP control
// state is shared by all fibers of a worker) is used; elsewhere Boost.Context's fcontext.
#if defined(__x86_64__) && !defined(PKEMU_USE_BOOST_CONTEXT)
#define PKEMU_FAST_SWITCH 1
extern "C" void pkemu_swap_ctx(void** save, void* to);
extern "C" void pkemu_fiber_trampoline();
#endif

enum FiberState : std::uint8_t { kReady = 0, kAtBarrier = 1, kAtColl = 2, kExited = 3 };

// One cache line per fiber: everything a switch, a barrier or a collective touches. The
// per-lane operands and results of warp collectives live in the Warp (structure of arrays), so
// completing a collective walks contiguous arrays instead of 32-64 Fiber objects.
struct alignas(64) Fiber {
  void* ctx = nullptr;  // saved context (stack pointer / fcontext)
  uint3 tid{};
  std::uint32_t lin = 0;
  std::uint32_t lane = 0, warp = 0;
  const char* wfile = nullptr;  // where the thread waits (barrier or collective)
  const char* cname = nullptr;  // collective it waits in
  int wline = 0;
  std::uint8_t bar_kind = 0;
  std::uint8_t state = kReady;  // set when the fiber blocks, reset by the fiber when it resumes
  char* stack = nullptr;  // lowest usable address (a guard page lies below)
};
static_assert(sizeof(Fiber) == 64, "Fiber should fill exactly one cache line");

struct Pending {
  std::uint64_t mask = 0, arrived = 0;
  std::uint64_t key = 0;  // mask for *_sync forms, 0 for the non-sync form
  std::uint32_t kind = 0;
  CollFn fn = nullptr;
  const char* name = nullptr;
  const char* file = nullptr;
  int line = 0;
  bool live_form = false;  // non-sync form: mask tracks the live lanes
};

struct Warp {
  // Per-lane collective operands and results (lane-indexed).
  alignas(64) std::uint64_t cval[64] = {};
  std::uint64_t cres[64] = {};
  std::int64_t carg[64] = {};
  int cwidth[64] = {};
  void* cpayload[64] = {};
  Fiber* lanes[64] = {};
  std::uint64_t exists = 0, exited = 0;
  std::uint32_t coll_count = 0;  // completed collectives (monotonic per worker)
  std::uint32_t last_full = 0;   // last collective in which every lane of the warp took part
  std::vector<std::uint32_t> pair;  // [64*64] last collective shared by lanes a and b
  Pending slots[8];
  int nslots = 0;
};

// Race-detection shadow for one byte of shared memory.
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
  std::atomic<std::uint64_t> next{0};
  std::uint32_t nthreads = 0;
  int W = 32;
  std::atomic<std::uint64_t> start_ns{0};
};

struct DeclSlot {
  const SharedDecl* d;
  std::size_t off;
};

struct Worker {
  int id = 0;
  Fiber sched;  // receives the scheduler's (OS thread's) context when a block starts
  Fiber sink;   // absorbs the context of fibers that exit
  Fiber* cur = nullptr;
  std::atomic<Fiber*> cur_pub{nullptr};
  std::atomic<std::int64_t> block_pub{-1};
  const LaunchCtx* L = nullptr;
  uint3 bidx{};
  std::vector<Fiber> fibers;
  std::vector<Fiber*> fiber_ptrs;  // &fibers[i], for queueing ranges of threads
  std::vector<Warp> warps;
  std::uint32_t nthreads = 0, nexited = 0, nwarps = 0;
  int W = 32;
  // ready queue
  std::vector<Fiber*> rq;
  std::uint32_t rq_head = 0, rq_tail = 0, rq_mask = 0;
  // barrier
  std::uint32_t bar_count = 0, bar_acc = 0;
  int bar_kind = 0, bar_result = 0;
  const char* bar_file = nullptr;
  int bar_line = 0;
  bool bar_mismatch = false;
  std::uint32_t epoch = 0;
  // stacks
  std::vector<char*> stacks;
  std::size_t stack_bytes = 0;
  // shared arena
  char* arena = nullptr;
  std::size_t arena_cap = 0;
  std::uint8_t* sstate = nullptr;  // 0 undeclared, 1 declared/uninitialised, 2 initialised
  Cell* cells = nullptr;
  std::size_t hwm = 0, static_top = 0, dyn_size = 0, static_bytes = 0;
  std::vector<DeclSlot> decls;
  bool aborting = false;
};

extern PKEMU_TLS Worker* t_worker;

// Configuration (environment), fixed at the first launch.
struct Config {
  int warp = 32;
  double timeout_s = 20;
  std::size_t stack_kb = 64;
  int workers = 2;
};
const Config& config();

// Reports.
struct Report {
  std::string kind;
  const void* kernel = nullptr;
  std::string text;       // may contain {pc0} and {pc1}
  void* pcs[2] = {nullptr, nullptr};
  std::string file;       // for reports with a source location from __builtin_FILE
  int line = 0;
};
void add_report(Report r);
void flush_reports();  // symbolize and print what is pending
[[noreturn]] void die_now();  // flush reports, stdio, _exit(86)
bool any_error();
std::string symbolize_function(const void* fn);
std::string describe_threads(const std::vector<std::uint32_t>& lins);
std::string block_str(uint3 b);
std::int32_t pc_to_i32(void* pc);
void* i32_to_pc(std::int32_t v);

// Current launch, for the watchdog.
extern std::atomic<LaunchCtx*> g_active_launch;
extern std::vector<Worker*>& g_workers;

}  // namespace detail
}  // namespace pkemu
