//===- report.cpp - reports, symbolization, exit status -------------------===//
// Rules: none (emulator runtime)
//
// Error reports: collection, de-duplication, symbolization (llvm-symbolizer /
// addr2line) and the exit status contract (86 when the emulator detected an
// error).
//
//===----------------------------------------------------------------------===//
#include <atomic>
#include <cassert>
#include <cerrno>
#include <fcntl.h>
#include <link.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "internal.h"
#include "pkemu/host_api.h"

extern char **environ;

#ifndef PKEMU_SOURCE_DIR
#define PKEMU_SOURCE_DIR ""
#endif

namespace pkemu {
namespace detail {

namespace {
// Heap-allocated and never destroyed: reports may be flushed from atexit
// handlers and from worker threads while the process exits.
std::mutex &g_rep_mu = *new std::mutex;
std::vector<Report> &g_pending = *new std::vector<Report>;
std::set<std::string> &g_seen_raw =
    *new std::set<std::string>; // kind + raw location
std::set<std::string> &g_seen_printed =
    *new std::set<std::string>; // kind + symbolized locations
bool g_any_error = false;
std::map<const void *, std::string> &g_fn_names =
    *new std::map<const void *, std::string>;

// PKEMU_ALLOW (validate --allow): checks relaxed for programs whose authors
// rely on benign patterns, a comma list of these names. Their reports are
// still printed, as "pkemu: allowed (NAME): ...", and leave the exit status
// alone.
struct Relaxable {
  const char *name, *kind;
};
constexpr Relaxable kRelaxable[] = {
    {"race-shared", "data race"},
    {"uninit-shared", "uninitialised shared memory read"},
};
constexpr unsigned kNumRelaxable = sizeof kRelaxable / sizeof kRelaxable[0];

unsigned parse_allow() {
  const char *e = std::getenv("PKEMU_ALLOW");
  unsigned m = 0;
  if (!e)
    return 0;
  std::string list = e;
  std::size_t p = 0;
  while (p <= list.size()) {
    std::size_t q = list.find(',', p);
    if (q == std::string::npos)
      q = list.size();
    std::string name = list.substr(p, q - p);
    p = q + 1;
    if (name.empty())
      continue;
    unsigned i = 0;
    while (i < kNumRelaxable && name != kRelaxable[i].name)
      ++i;
    if (i == kNumRelaxable) {
      std::string known;
      for (const Relaxable &r : kRelaxable)
        known += std::string(known.empty() ? "" : ", ") + r.name;
      std::fprintf(stderr,
                   "pkemu: error: PKEMU_ALLOW=%s: unknown check '%s' (checks "
                   "that can be relaxed: %s)\n",
                   e, name.c_str(), known.c_str());
      std::fflush(stderr);
      _exit(2);
    }
    m |= 1u << i;
  }
  return m;
}

unsigned allow_mask() {
  static const unsigned m = parse_allow();
  return m;
}

// The PKEMU_ALLOW name that relaxes reports of \p kind, or null.
const char *relaxed_by(const std::string &kind) {
  const unsigned m = allow_mask();
  for (unsigned i = 0; i < kNumRelaxable; ++i)
    if ((m >> i & 1) && kind == kRelaxable[i].kind)
      return kRelaxable[i].name;
  return nullptr;
}

std::string exe_path() {
  char buf[4096];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0)
    return "";
  buf[n] = 0;
  return buf;
}

struct ModQuery {
  std::uintptr_t addr;
  std::string path;
  std::uintptr_t rel;
  bool found;
};

int phdr_cb(struct dl_phdr_info *info, size_t, void *data) {
  auto *q = static_cast<ModQuery *>(data);
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const auto &ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD)
      continue;
    std::uintptr_t lo = info->dlpi_addr + ph.p_vaddr;
    if (q->addr >= lo && q->addr < lo + ph.p_memsz) {
      q->found = true;
      q->rel = q->addr - info->dlpi_addr;
      q->path = (info->dlpi_name && info->dlpi_name[0]) ? info->dlpi_name
                                                        : exe_path();
      return 1;
    }
  }
  return 0;
}

std::string find_symbolizer(bool &is_llvm) {
  if (const char *e = std::getenv("PKEMU_SYMBOLIZER")) {
    is_llvm = std::strstr(e, "llvm") != nullptr;
    return e;
  }
  const char *cands[] = {"/usr/lib/llvm-19/bin/llvm-symbolizer",
                         "/usr/bin/llvm-symbolizer-19",
                         "/usr/bin/llvm-symbolizer"};
  for (const char *c : cands)
    if (access(c, X_OK) == 0) {
      is_llvm = true;
      return c;
    }
  is_llvm = false;
  if (access("/usr/bin/addr2line", X_OK) == 0)
    return "/usr/bin/addr2line";
  return "";
}

bool is_runtime_file(const std::string &f) {
  return f.find("/lib/Emu/shim/") != std::string::npos ||
         f.find("/port-kernel/emu/") != std::string::npos ||
         f.find("/lib/Emu/include/") != std::string::npos ||
         f.find("/pkemu/") != std::string::npos ||
         f.find("/c++/") != std::string::npos ||
         f.find("/bits/") != std::string::npos;
}

struct Sym {
  std::string func;
  std::string loc; // file:line of the first frame outside the runtime headers
};

/// Runs \p argv (no shell: each argument reaches the program as it is, so
/// paths with quotes or spaces are safe) with its stdin from \p stdin_path,
/// stderr discarded; \p out receives its stdout. False when it could not
/// be started or failed.
bool run_capture(const std::vector<std::string> &argv, const char *stdin_path,
                 std::string &out) {
  std::vector<char *> av;
  for (const std::string &a : argv)
    av.push_back(const_cast<char *>(a.c_str()));
  av.push_back(nullptr);
  int p[2];
  if (pipe2(p, O_CLOEXEC) != 0)
    return false;
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, stdin_path, O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&fa, p[1], 1);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  pid_t pid;
  // A bare name (PKEMU_SYMBOLIZER=llvm-symbolizer) is looked up in PATH.
  int err = posix_spawnp(&pid, av[0], &fa, nullptr, av.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  close(p[1]);
  if (err != 0) {
    close(p[0]);
    return false;
  }
  char buf[8192];
  for (;;) {
    ssize_t k = read(p[0], buf, sizeof buf);
    if (k > 0)
      out.append(buf, (std::size_t)k);
    else if (k == 0 || errno != EINTR)
      break;
  }
  close(p[0]);
  int st = 0;
  while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

// Symbolize a batch of addresses. `exact` addresses are function entries,
// others return addresses.
std::vector<Sym>
symbolize(const std::vector<std::pair<const void *, bool>> &addrs) {
  std::vector<Sym> out(addrs.size());
  bool llvm = false;
  std::string tool = find_symbolizer(llvm);
  if (tool.empty() || addrs.empty())
    return out;
  char tmpl[] = "/tmp/pkemu-sym-XXXXXX";
  int fd = mkstemp(tmpl);
  if (fd < 0)
    return out;
  std::string input;
  std::vector<std::string> objs;
  for (auto &a : addrs) {
    ModQuery q{(std::uintptr_t)a.first - (a.second ? 0 : 1), "", 0, false};
    dl_iterate_phdr(phdr_cb, &q);
    if (!q.found)
      q.path = exe_path(), q.rel = q.addr;
    char line[4200];
    std::snprintf(line, sizeof line, "\"%s\" 0x%llx\n", q.path.c_str(),
                  (unsigned long long)q.rel);
    input += line;
    objs.push_back(q.path);
  }
  if (write(fd, input.data(), input.size()) != (ssize_t)input.size()) {
    close(fd);
    unlink(tmpl);
    return out;
  }
  close(fd);
  if (llvm) {
    std::string text;
    if (run_capture({tool, "--inlines", "--demangle"}, tmpl, text)) {
      std::vector<std::string> lines;
      std::istringstream in(text);
      for (std::string s; std::getline(in, s);) {
        while (!s.empty() && s.back() == '\r')
          s.pop_back();
        lines.push_back(s);
      }
      std::size_t i = 0;
      for (std::size_t k = 0; k < addrs.size() && i < lines.size(); ++k) {
        std::vector<std::pair<std::string, std::string>> frames;
        while (i < lines.size() && !lines[i].empty()) {
          std::string fn = lines[i++];
          std::string fl = i < lines.size() ? lines[i++] : "";
          frames.emplace_back(fn, fl);
        }
        while (i < lines.size() && lines[i].empty())
          ++i;
        if (frames.empty())
          continue;
        out[k].func =
            frames.back().first; // outermost frame: the function the code is in
        std::string pick = frames.front().second;
        for (auto &f : frames)
          if (!is_runtime_file(f.second)) {
            pick = f.second;
            break;
          }
        // strip the column
        auto c1 = pick.rfind(':');
        if (c1 != std::string::npos) {
          auto c0 = pick.rfind(':', c1 - 1);
          if (c0 != std::string::npos && c0 > 0)
            pick = pick.substr(0, c1);
        }
        out[k].loc = pick;
      }
    }
  } else {
    // addr2line: one object at a time
    for (std::size_t k = 0; k < addrs.size(); ++k) {
      ModQuery q{(std::uintptr_t)addrs[k].first - (addrs[k].second ? 0 : 1), "",
                 0, false};
      dl_iterate_phdr(phdr_cb, &q);
      if (!q.found)
        continue;
      char addr[32];
      std::snprintf(addr, sizeof addr, "0x%llx", (unsigned long long)q.rel);
      std::string text;
      if (!run_capture({tool, "-f", "-C", "-e", q.path, addr}, "/dev/null",
                       text))
        continue;
      std::istringstream in(text);
      std::string f, l;
      if (std::getline(in, f) && std::getline(in, l)) {
        auto d = l.find(" (discriminator");
        if (d != std::string::npos)
          l = l.substr(0, d);
        out[k].func = f;
        out[k].loc = l;
      }
    }
  }
  unlink(tmpl);
  return out;
}

std::string replace_all(std::string s, const std::string &from,
                        const std::string &to) {
  for (std::size_t p = s.find(from); p != std::string::npos;
       p = s.find(from, p + to.size()))
    s.replace(p, from.size(), to);
  return s;
}

std::string kernel_display(const std::string &f) {
  return f.empty() || f == "??" ? std::string("?") : f;
}

} // namespace

__attribute__((noinline)) void pc_anchor() { asm volatile(""); }

std::string describe_threads(const std::vector<std::uint32_t> &lins0) {
  std::vector<std::uint32_t> l = lins0;
  std::sort(l.begin(), l.end());
  l.erase(std::unique(l.begin(), l.end()), l.end());
  if (l.empty())
    return "no threads";
  std::string s = l.size() == 1 ? "thread " : "threads ";
  for (std::size_t i = 0; i < l.size();) {
    std::size_t j = i;
    while (j + 1 < l.size() && l[j + 1] == l[j] + 1)
      ++j;
    if (i)
      s += ",";
    s += std::to_string(l[i]);
    if (j > i)
      s += "-" + std::to_string(l[j]);
    i = j + 1;
  }
  return s;
}

std::string block_str(uint3 b) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "(%u,%u,%u)", b.x, b.y, b.z);
  return buf;
}

std::string loc(const char *file, int line) {
  if (!file)
    return "?";
  return std::string(file) + ":" + std::to_string(line);
}

std::string hex64(std::uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", (unsigned long long)v);
  return buf;
}

std::vector<std::uint32_t> lanes_to_lins(const Warp &wp, std::uint64_t m) {
  std::vector<std::uint32_t> v;
  for (int l = 0; l < 64; ++l)
    if ((m >> l) & 1 && wp.lanes[l])
      v.push_back(wp.lanes[l]->lin);
  return v;
}

namespace {
std::atomic<std::uint64_t> g_report_calls{0};
}
std::uint64_t report_count() {
  return g_report_calls.load(std::memory_order_acquire);
}

void add_report(Report r) {
  g_report_calls.fetch_add(1, std::memory_order_acq_rel);
  std::lock_guard<std::mutex> lk(g_rep_mu);
  if (!relaxed_by(r.kind))
    g_any_error = true;
  char key[512];
  std::snprintf(key, sizeof key, "%s|%p|%p|%s|%d|%p", r.kind.c_str(), r.pcs[0],
                r.pcs[1], r.file.c_str(), r.line, r.kernel);
  if (!g_seen_raw.insert(key).second)
    return;
  if (g_pending.size() > 10000)
    return;
  g_pending.push_back(std::move(r));
}

bool any_error() {
  std::lock_guard<std::mutex> lk(g_rep_mu);
  return g_any_error;
}

void flush_reports() {
  std::vector<Report> reps;
  {
    std::lock_guard<std::mutex> lk(g_rep_mu);
    reps.swap(g_pending);
  }
  if (reps.empty())
    return;
  std::vector<std::pair<const void *, bool>> addrs;
  std::map<const void *, std::size_t> idx_pc, idx_fn;
  for (auto &r : reps) {
    for (void *pc : r.pcs)
      if (pc && !idx_pc.count(pc))
        idx_pc[pc] = addrs.size(), addrs.emplace_back(pc, false);
    if (r.kernel && !idx_fn.count(r.kernel))
      idx_fn[r.kernel] = addrs.size(), addrs.emplace_back(r.kernel, true);
  }
  std::vector<Sym> syms = symbolize(addrs);
  std::lock_guard<std::mutex> lk(g_rep_mu);
  for (auto &r : reps) {
    std::string l0 = r.pcs[0] ? syms[idx_pc[r.pcs[0]]].loc : "";
    std::string l1 = r.pcs[1] ? syms[idx_pc[r.pcs[1]]].loc : "";
    if (r.pcs[0] && l0.empty()) {
      char b[32];
      std::snprintf(b, sizeof b, "pc %p", r.pcs[0]);
      l0 = b;
    }
    if (r.pcs[1] && l1.empty()) {
      char b[32];
      std::snprintf(b, sizeof b, "pc %p", r.pcs[1]);
      l1 = b;
    }
    if (!r.pcs[1] && r.text.find("{pc1}") != std::string::npos)
      l1 = "an unknown location";
    std::string where = !r.file.empty() ? r.file + ":" + std::to_string(r.line)
                                        : (l0.empty() ? "?" : l0);
    // Reports from host code (the program's own, in any thread) name no
    // kernel.
    std::string kname;
    if (r.kernel) {
      auto it = g_fn_names.find(r.kernel);
      if (it == g_fn_names.end())
        it = g_fn_names
                 .emplace(r.kernel, kernel_display(syms[idx_fn[r.kernel]].func))
                 .first;
      kname = it->second;
    }
    std::string key = r.kind + "|" + where + "|" + kname;
    if (!g_seen_printed.insert(key).second)
      continue;
    std::string text = replace_all(
        replace_all(r.text, "{pc0}", l0.empty() ? where : l0), "{pc1}", l1);
    const char *relaxed = relaxed_by(r.kind);
    const std::string who =
        r.kernel ? "kernel '" + kname + "'" : std::string("host code");
    std::fprintf(stderr, "pkemu: %s%s%s: %s: %s at %s: %s\n",
                 relaxed ? "allowed (" : "error", relaxed ? relaxed : "",
                 relaxed ? ")" : "", r.kind.c_str(), who.c_str(), where.c_str(),
                 text.c_str());
  }
  std::fflush(stderr);
}

std::string symbolize_function(const void *fn) {
  auto s = symbolize({{fn, true}});
  return s.empty() ? "?" : kernel_display(s[0].func);
}

[[noreturn]] void die_now() {
  static std::mutex once;
  once.lock(); // a second aborting thread waits here until the process is gone
  std::fflush(stdout);
  flush_reports();
  std::fflush(nullptr);
  _exit(86);
}

void error(const char *kind, const char *msg, const char *file, int line) {
  Report r;
  r.kind = kind;
  Worker *w = t_worker;
  r.kernel = (w && w->L) ? w->L->a.fn : nullptr;
  r.text = msg;
  r.file = file ? file : "";
  r.line = line;
  add_report(std::move(r));
}

void fatal(const char *kind, const char *msg, const char *file, int line) {
  error(kind, msg, file, line);
  abort_current();
  die_now();
}

namespace {
void at_exit_handler() {
  flush_reports();
  if (any_error()) {
    std::fflush(nullptr);
    _exit(86);
  }
}
__attribute__((constructor(101))) void register_exit_handler() {
  (void)allow_mask(); // a bad PKEMU_ALLOW stops the program before it runs
  std::atexit(at_exit_handler);
}
} // namespace

} // namespace detail
} // namespace pkemu

// assert() calls __assert_fail when its expression is false; the runtime's
// definition comes before the C library's. In a kernel it is CUDA's device
// assert: the thread prints where it failed ("FILE:LINE: FUNCTION: block:
// [x,y,z], thread: [x,y,z] Assertion `EXPR` failed.", to stderr) and stops;
// the launch starts no further block, and every later API call returns
// cudaErrorAssert / hipErrorAssert (710: the error is sticky). Other threads
// of the blocks already running go on, so each thread whose assert fails
// there prints, as on the device. In host code it is the C library's: the
// message and abort().
extern "C" void __assert_fail(const char *assertion, const char *file,
                              unsigned int line,
                              const char *function) noexcept {
  using namespace pkemu::detail;
  Worker *w = t_worker;
  if (pkemu_t_arena_size != 0 && w && w->cur && w->L) {
    const uint3 b = w->bidx, t = threadIdx;
    std::fprintf(stderr,
                 "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] "
                 "Assertion `%s` failed.\n",
                 file, line, function ? function : "?", b.x, b.y, b.z, t.x, t.y,
                 t.z, assertion);
    pkemu::api::set_sticky_error(pkemu::api::kAssert);
    const_cast<LaunchCtx *>(w->L)->stopped.store(true,
                                                 std::memory_order_relaxed);
    exit_current_thread();
  }
  std::fprintf(stderr, "%s: %s:%u: %s%sAssertion `%s' failed.\n",
               program_invocation_short_name, file, line,
               function ? function : "", function ? ": " : "", assertion);
  std::fflush(nullptr);
  std::abort();
}
