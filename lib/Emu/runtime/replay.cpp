//===- replay.cpp - launches that repeat an earlier one exactly ----------===//
// Rules: none (emulator runtime)
//
// Programs time their kernels by launching them again and again over the same
// data (matrixMul launches its product 300 times, BlackScholes its pricing
// 512 times): every launch after the first computes what the first computed.
// A launch is a function of the kernel, its configuration, its arguments and
// the device memory it reads, when it does nothing else: no atomic, volatile
// access outside shared memory, access to host memory or the program's
// writable image, printf, clock, allocation or other call
// outside the program (pkemu_t_effects, set by the hooks and by the plugin's
// Effects pass), and no report. Such a launch need not run again: its result
// can be written.
//
// Per launch key (kernel, thunk, grid, block, dynamic shared memory,
// cooperative, warp width, the bytes of the arguments) the runtime keeps the
// device memory before the last effect-free run (a hash per region: every
// live device buffer, and the globals device code reads without a hook,
// registered by the plugin's ProgramGlobals pass or by device_var) and what
// that run left in the regions it changed. A later launch with the same key
// over memory with the same hashes is replayed: those regions get the saved
// bytes, and nothing runs. The first launch of a key is never hashed (most keys
// run once); hashing starts at the second, and only where hashing all device
// memory costs less than a quarter of the key's last run (at the hashing
// speed last measured: once on 8 MiB, then on every large hash). A key whose
// memory keeps changing (three misses more than twice its hits) stops being
// hashed. The saved bytes are bounded (save_budget in all).
//
// PKEMU_REPLAY=0 turns replay off (so does a translation unit built without
// the Effects pass: the prelude registers what the pass answered);
// PKEMU_REPLAY=always leaves out the cost test.
//
// The hash is 64 bits per region (four lanes of multiply-rotate rounds over
// 8-byte words, a final avalanche): two different memory states that match
// every region's hash by chance are as likely as a 64-bit collision per
// region.
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include <unistd.h>

#include "internal.h"

namespace pkemu {
namespace detail {

namespace {

constexpr std::uint64_t kP1 = 0x9E3779B185EBCA87ull,
                        kP2 = 0xC2B2AE3D27D4EB4Full,
                        kP3 = 0x165667B19E3779F9ull,
                        kP4 = 0x85EBCA77C2B2AE63ull;

inline std::uint64_t rotl(std::uint64_t x, int r) {
  return (x << r) | (x >> (64 - r));
}
inline std::uint64_t mix(std::uint64_t acc, std::uint64_t w) {
  acc += w * kP2;
  return rotl(acc, 31) * kP1;
}
inline std::uint64_t load64(const unsigned char *p) {
  std::uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

// The hash of n bytes at p (runtime reads of device memory: no hooks).
__attribute__((no_sanitize("thread"))) std::uint64_t
hash_bytes(const unsigned char *p, std::size_t n) {
  std::uint64_t a = kP1 + kP2, b = kP2, c = 0, d = 0 - kP1;
  std::size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    a = mix(a, load64(p + i));
    b = mix(b, load64(p + i + 8));
    c = mix(c, load64(p + i + 16));
    d = mix(d, load64(p + i + 24));
  }
  std::uint64_t h = rotl(a, 1) + rotl(b, 7) + rotl(c, 12) + rotl(d, 18);
  h = (h ^ mix(0, a)) * kP1 + kP4;
  h = (h ^ mix(0, b)) * kP1 + kP4;
  h = (h ^ mix(0, c)) * kP1 + kP4;
  h = (h ^ mix(0, d)) * kP1 + kP4;
  h += (std::uint64_t)n;
  for (; i + 8 <= n; i += 8)
    h = rotl(h ^ mix(0, load64(p + i)), 27) * kP1 + kP4;
  for (; i < n; ++i)
    h = rotl(h ^ (p[i] * kP3), 11) * kP1;
  h ^= h >> 33;
  h *= kP2;
  h ^= h >> 29;
  h *= kP3;
  h ^= h >> 32;
  return h;
}

struct Saved {
  std::size_t region;
  std::vector<unsigned char> bytes;
};

struct Entry {
  std::uint64_t last_ns = 0;
  bool last_clean = false; // the last run had no effects and no report
  bool disabled = false;
  std::uint64_t hits = 0, misses = 0;
  // The record: the regions and their hashes before an effect-free run, and
  // the bytes of the regions it changed.
  bool have = false;
  std::vector<Region> regions;
  std::vector<std::uint64_t> pre;
  std::vector<Saved> post;
  std::size_t saved_bytes = 0;
};

// The saved bytes of all keys: 1 GiB, or a sixteenth of the machine's
// memory where that is less.
std::size_t save_budget() {
  static const std::size_t b = [] {
    std::size_t most = std::size_t(1) << 30;
    const long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    if (pages > 0 && size > 0)
      most = std::min(most, (std::size_t)pages * (std::size_t)size / 16);
    return most;
  }();
  return b;
}
// Hashing speed for the cost test, in bytes per microsecond: measured once
// on 8 MiB before the first cost test, then on every hash of 64 KiB or more.
std::atomic<std::uint64_t> g_hash_bytes_per_us{0};

std::mutex g_mu;
std::unordered_map<std::string, Entry> g_entries;
std::size_t g_saved = 0;
std::atomic<std::uint64_t> g_replayed{0};
std::atomic<bool> g_unmarked{false};

// PKEMU_REPLAY: 0 off, "always" without the cost test (tests: the launches
// replayed then do not depend on timing), anything else or unset: on.
int mode() {
  static const int m = [] {
    const char *e = std::getenv("PKEMU_REPLAY");
    if (e && e[0] == '0')
      return 0;
    if (e && !std::strcmp(e, "always"))
      return 2;
    return 1;
  }();
  return m;
}
bool enabled() { return mode() && !g_unmarked.load(std::memory_order_relaxed); }

std::string launch_key(const LaunchArgs &a, int warp) {
  std::string k;
  auto put = [&k](const void *p, std::size_t n) {
    k.append(static_cast<const char *>(p), n);
  };
  put(&a.fn, sizeof a.fn);
  put(&a.thunk, sizeof a.thunk);
  put(&a.grid, sizeof a.grid);
  put(&a.block, sizeof a.block);
  put(&a.shmem, sizeof a.shmem);
  const char coop = a.cooperative ? 1 : 0;
  put(&coop, 1);
  put(&warp, sizeof warp);
  put(a.pack, a.pack_size);
  return k;
}

void drop_record(Entry &e) {
  g_saved -= e.saved_bytes;
  e.saved_bytes = 0;
  e.post.clear();
  e.post.shrink_to_fit();
  e.regions.clear();
  e.pre.clear();
  e.have = false;
}

bool same_layout(const std::vector<Region> &x, const std::vector<Region> &y) {
  if (x.size() != y.size())
    return false;
  for (std::size_t i = 0; i < x.size(); ++i)
    if (x[i].addr != y[i].addr || x[i].size != y[i].size)
      return false;
  return true;
}

} // namespace

void register_effects_pass(int ran) {
  if (!ran)
    g_unmarked.store(true, std::memory_order_relaxed);
}

bool effects_marked() { return !g_unmarked.load(std::memory_order_relaxed); }

std::uint64_t replayed_launches() {
  return g_replayed.load(std::memory_order_relaxed);
}

static std::uint64_t hash_speed() {
  std::uint64_t v = g_hash_bytes_per_us.load(std::memory_order_relaxed);
  if (v)
    return v;
  const std::size_t n = std::size_t(8) << 20;
  std::vector<unsigned char> buf(n);
  for (std::size_t i = 0; i < n; i += 64)
    buf[i] = (unsigned char)i;
  const std::uint64_t t0 = now_ns();
  volatile std::uint64_t sink = hash_bytes(buf.data(), n);
  (void)sink;
  const std::uint64_t spent = std::max<std::uint64_t>(1, now_ns() - t0);
  v = std::max<std::uint64_t>(1, n * 1000 / spent);
  g_hash_bytes_per_us.store(v, std::memory_order_relaxed);
  return v;
}

bool replay_before(const LaunchArgs &a, int warp, ReplayTicket &t) {
  if (!a.pack_size || !enabled())
    return false;
  std::lock_guard<std::mutex> lk(g_mu);
  Entry &e = g_entries[launch_key(a, warp)];
  t.entry = &e;
  if (e.disabled || !e.last_clean)
    return false;
  device_regions(t.regions);
  std::uint64_t total = 0;
  for (const Region &r : t.regions)
    total += r.size;
  if (mode() != 2 && total * 1000 / hash_speed() > e.last_ns / 4)
    return false;
  const std::uint64_t t0 = now_ns();
  t.pre.resize(t.regions.size());
  for (std::size_t i = 0; i < t.regions.size(); ++i)
    t.pre[i] =
        hash_bytes((const unsigned char *)t.regions[i].addr, t.regions[i].size);
  t.hashed = true;
  const std::uint64_t spent = now_ns() - t0;
  if (total >= (64u << 10) && spent)
    g_hash_bytes_per_us.store(std::max<std::uint64_t>(1, total * 1000 / spent),
                              std::memory_order_relaxed);
  if (!e.have || !same_layout(e.regions, t.regions) || e.pre != t.pre)
    return false;
  for (const Saved &s : e.post)
    std::memcpy((void *)e.regions[s.region].addr, s.bytes.data(),
                s.bytes.size());
  ++e.hits;
  g_replayed.fetch_add(1, std::memory_order_relaxed);
  return true;
}

void replay_after(ReplayTicket &t, bool effects, bool reported,
                  std::uint64_t ns) {
  if (!t.entry)
    return;
  std::lock_guard<std::mutex> lk(g_mu);
  Entry &e = *static_cast<Entry *>(t.entry);
  e.last_ns = ns;
  e.last_clean = !effects && !reported;

  if (!t.hashed)
    return;
  if (e.have && ++e.misses >= 2 * e.hits + 3) {
    drop_record(e);
    e.disabled = true;
    return;
  }
  drop_record(e);
  if (!e.last_clean)
    return;
  std::vector<Region> now;
  device_regions(now);
  if (!same_layout(now, t.regions))
    return;
  std::vector<Saved> post;
  std::size_t bytes = 0;
  for (std::size_t i = 0; i < now.size(); ++i) {
    const unsigned char *p = (const unsigned char *)now[i].addr;
    if (hash_bytes(p, now[i].size) == t.pre[i])
      continue;
    bytes += now[i].size;
    if (g_saved + bytes > save_budget()) {
      e.disabled = true; // would be hashed again and again, never recorded
      return;
    }
    post.push_back(Saved{i, std::vector<unsigned char>(p, p + now[i].size)});
  }
  e.regions = std::move(t.regions);
  e.pre = std::move(t.pre);
  e.post = std::move(post);
  e.saved_bytes = bytes;
  g_saved += bytes;
  e.have = true;
}

} // namespace detail
} // namespace pkemu
