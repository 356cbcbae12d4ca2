//===- device_memory.cpp - checked device buffers -------------------------===//
// Rules: none (emulator runtime)
//
// cudaMalloc / hipMalloc (and the managed and pitched forms) place every
// buffer in its own 4 GiB slot of one address range reserved at the first
// allocation (PROT_NONE, MAP_NORESERVE: it costs no memory), at the middle of
// the slot; only the buffer's pages are made accessible. The memory hooks
// (hooks.cpp) and the atomic shims test every access against the slot's size
// (pkemu::detail::device_out_of_bounds) and report one that falls outside its
// buffer; the page it touches is then made accessible so that the program
// continues (reads see zeros) and ends with exit status 86 like every other
// report. Freed slots are reused oldest first, so a use after free is
// reported too until the slot is reused. A buffer of more than 2 GiB spans
// consecutive unused slots: it starts at the middle of its first slot, and
// each later slot's size entry holds the bytes left from that slot's middle,
// so accesses in the upper half of every slot it covers take the fast path;
// an access in the lower half of a later slot fails the fast test and is
// resolved here (device_find: inside the buffer, nothing to report). Every
// buffer once the slots are taken or when no range can be reserved, and a
// buffer larger than the whole range, come from the C heap unchecked.
//
// The memory map: what else a kernel may access. The hooks test the fiber
// stacks (one reserved range, stack_alloc) and the program's image (its
// globals, __device__ and __constant__ variables among them) inline; the rest
// is a map of ranges looked up by memory_allowed: pinned host memory
// (cudaMallocHost, hipHostMalloc, ...), registered host memory
// (cudaHostRegister), the stacks of the threads that launch kernels and run
// blocks (kernel arguments are read from the launching thread's stack),
// shared libraries' segments, and memory that kernels allocate (malloc and
// new called in a kernel, which this file wraps). The thread's static TLS
// (threadIdx, ...) is a thread-local range.
//
//===----------------------------------------------------------------------===//
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <link.h>
#include <map>
#include <mutex>
#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>
#include <vector>

#include "internal.h"

namespace pkemu {
namespace detail {

extern "C" {
DeviceHeap pkemu_device_heap = {0, 0, {}};
}

namespace {
std::mutex g_heap_mu;
bool g_heap_init = false;
unsigned g_nslots = 0, g_next = 0;
std::deque<unsigned> g_reuse;
DeviceSlot g_slots[kDeviceSlots];
// For a slot that a buffer of more than 2 GiB continues into: its first
// slot + 1 (0: none). Kept after the buffer is freed (use after free is
// reported against it) until the slot is reused.
unsigned g_owner[kDeviceSlots];
// Buffers are numbered in allocation order (variables are not numbered).
std::uint64_t g_serial = 0;
// Slots a buffer of n bytes spans when it starts at the middle of the first.
std::uint64_t slots_for(std::size_t n) {
  std::uint64_t whole = std::uint64_t(1) << kDeviceSlotShift;
  if (n <= kDeviceSlotHalf)
    return 1;
  return 1 + (((std::uint64_t)n - kDeviceSlotHalf) + whole - 1) / whole;
}

constexpr std::size_t kHugePage = std::size_t(2) << 20;

std::uintptr_t page_size() {
  static const std::uintptr_t P = (std::uintptr_t)sysconf(_SC_PAGESIZE);
  return P;
}
std::uintptr_t slot_base(unsigned s) {
  return pkemu_device_heap.lo + ((std::uintptr_t)s << kDeviceSlotShift) +
         kDeviceSlotHalf;
}

void init_heap() {
  if (g_heap_init)
    return;
  g_heap_init = true;
  if (const char *v = std::getenv("PKEMU_DEVICE_CHECK"))
    if (v[0] == '0')
      return;
  for (unsigned n = kDeviceSlots; n >= 16; n /= 4) {
    std::size_t span = (std::size_t)n << kDeviceSlotShift;
    // One huge page more, so that the range (and every buffer, at the
    // middle of its slot) starts on a huge-page boundary.
    void *p = mmap(nullptr, span + kHugePage, PROT_NONE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p != MAP_FAILED) {
      g_nslots = n;
      pkemu_device_heap.lo = ((std::uintptr_t)p + kHugePage - 1) &
                             ~(std::uintptr_t)(kHugePage - 1);
      pkemu_device_heap.span = span;
      return;
    }
  }
}
} // namespace

void *device_alloc(std::size_t n, void *pc) {
  std::lock_guard<std::mutex> lk(g_heap_mu);
  init_heap();
  if (!pkemu_device_heap.span)
    return nullptr;
  // A buffer larger than the whole range cannot be placed (and its page
  // rounding below would overflow).
  if ((std::uint64_t)n > pkemu_device_heap.span - kDeviceSlotHalf)
    return nullptr;
  std::uint64_t k = slots_for(n);
  unsigned s;
  if (k > 1) {
    // Consecutive slots never used yet (freed ones are scattered).
    if (g_next + k > g_nslots)
      return nullptr;
    s = g_next;
    g_next += (unsigned)k;
  } else if (g_next < g_nslots)
    s = g_next++;
  else if (!g_reuse.empty()) {
    s = g_reuse.front();
    g_reuse.pop_front();
    // It may have been the first slot of a freed buffer of more than 2 GiB:
    // the slots that buffer continued into are not its any more.
    for (unsigned c = s + 1; c < g_nslots && g_owner[c] == s + 1; ++c)
      g_owner[c] = 0;
  } else
    return nullptr;
  std::uintptr_t P = page_size();
  std::size_t len = ((n ? n : 1) + P - 1) & ~(P - 1);
  void *base = (void *)slot_base(s);
  if (mprotect(base, len, PROT_READ | PROT_WRITE) != 0) {
    for (std::uint64_t j = 0; j < k; ++j)
      g_reuse.push_back(s + (unsigned)j);
    return nullptr;
  }
  // A large buffer is backed by huge pages where the system allows it: a
  // program's buffers of gigabytes are then faulted in 2 MiB at a time
  // rather than 4 KiB (the zeroing is the same; the faults are 512x fewer).
  if (len >= kHugePage)
    (void)madvise(base, len, MADV_HUGEPAGE);
  DeviceSlot &d = g_slots[s];
  d.size = n;
  d.mapped = len;
  d.pc = pc;
  d.serial = ++g_serial;
  d.state = DeviceSlot::kLive;
  d.var = d.file = nullptr;
  d.line = 0;
  g_owner[s] = 0;
  pkemu_device_heap.size[s] = n;
  for (std::uint64_t j = 1; j < k; ++j) {
    unsigned c = s + (unsigned)j;
    g_slots[c] = DeviceSlot();
    g_owner[c] = s + 1;
    std::uint64_t before = j
                           << kDeviceSlotShift; // from the start to c's middle
    pkemu_device_heap.size[c] = (std::uint64_t)n > before ? n - before : 0;
  }
  return base;
}

int device_release(void *p) {
  std::uintptr_t off = (std::uintptr_t)p - pkemu_device_heap.lo;
  if (off >= pkemu_device_heap.span)
    return 0;
  std::lock_guard<std::mutex> lk(g_heap_mu);
  unsigned s = (unsigned)(off >> kDeviceSlotShift);
  DeviceSlot &d = g_slots[s];
  if ((std::uintptr_t)p != slot_base(s) || d.state != DeviceSlot::kLive)
    return -1;
  std::uint64_t k = slots_for(d.size);
  for (std::uint64_t j = 0; j < k; ++j) {
    pkemu_device_heap.size[s + j] = 0;
    g_reuse.push_back(s + (unsigned)j);
  }
  d.state = DeviceSlot::kFreed;
  madvise(p, d.mapped, MADV_DONTNEED);
  mprotect(p, d.mapped, PROT_NONE);
  return 1;
}

void *device_var_alloc(const void *init, std::size_t n, const char *name,
                       const char *file, int line) {
  void *p = device_alloc(n, nullptr);
  if (!p)
    return nullptr;
  std::memcpy(p, init, n);
  std::lock_guard<std::mutex> lk(g_heap_mu);
  DeviceSlot &d =
      g_slots[(((std::uintptr_t)p - pkemu_device_heap.lo) >> kDeviceSlotShift)];
  d.var = name;
  d.file = file;
  d.serial = 0;
  --g_serial;
  d.line = line;
  return p;
}

bool device_find(std::uintptr_t a, std::size_t n, DeviceSlot &out,
                 std::int64_t &rel) {
  std::uintptr_t off = a - pkemu_device_heap.lo;
  if (off >= pkemu_device_heap.span)
    return false;
  std::lock_guard<std::mutex> lk(g_heap_mu);
  unsigned s = (unsigned)(off >> kDeviceSlotShift);
  if (unsigned o = g_owner[s]) {
    // In a later slot of a buffer of more than 2 GiB: relative to its start.
    out = g_slots[o - 1];
    rel = (std::int64_t)(a - slot_base(o - 1));
    return !(out.state == DeviceSlot::kLive && rel >= 0 &&
             (std::uint64_t)rel <= out.size && out.size - rel >= n);
  }
  rel = (std::int64_t)(a - slot_base(s));
  // Far before a buffer's start may be closer to the end of the previous one.
  if (rel < 0 && s > 0 && g_slots[s - 1].state != DeviceSlot::kUnused) {
    std::int64_t prev = (std::int64_t)(a - slot_base(s - 1));
    if (prev - (std::int64_t)g_slots[s - 1].size < -rel ||
        g_slots[s].state == DeviceSlot::kUnused) {
      --s;
      rel = prev;
    }
  }
  out = g_slots[s];
  return true;
}

bool device_range_bad(std::uintptr_t a, std::size_t n) {
  if (!n || !device_out_of_bounds(a, n))
    return false;
  DeviceSlot d;
  std::int64_t rel;
  return device_find(a, n, d, rel);
}

void device_open_pages(std::uintptr_t a, std::size_t n) {
  std::uintptr_t P = page_size();
  std::uintptr_t lo = a & ~(P - 1), hi = (a + (n ? n : 1) + P - 1) & ~(P - 1);
  mprotect((void *)lo, hi - lo, PROT_READ | PROT_WRITE);
}

// ---------------------------------------------------------------------------------------------
// The memory map.
extern "C" {
KnownMemory pkemu_known_memory = {0, 0, 0, 0};
}
PKEMU_TLS std::uintptr_t pkemu_t_tls_lo = 0, pkemu_t_tls_size = 0;
PKEMU_TLS std::uintptr_t pkemu_t_ok_lo = 0, pkemu_t_ok_size = 0;

namespace {
std::mutex g_map_mu;
std::map<std::uintptr_t, std::uintptr_t> g_ranges; // start -> end
std::once_flag g_map_once;
std::uintptr_t g_tls_below = 0; // static TLS below the thread pointer
// Kernel allocations are recorded (and frees looked up) only once a kernel
// allocated something.
std::atomic<bool> g_kernel_allocs{false};
PKEMU_TLS bool t_in_map = false; // the map's own allocations

std::mutex g_stack_mu;
std::uintptr_t g_stack_next = 0;

// The read-only segments of the program's image (constant tables a kernel
// may index), set once by init_map.
constexpr int kMaxReadOnly = 8;
std::uintptr_t g_ro_lo[kMaxReadOnly], g_ro_hi[kMaxReadOnly];
std::atomic<int> g_nro{0};

// __device__ variables kept in their original storage (device_var) and the
// globals device code reads without a hook: registered during static
// initialisation, so constructed on first use.
std::mutex &var_mu() {
  static std::mutex *m = new std::mutex;
  return *m;
}
std::vector<Region> &in_place() {
  static std::vector<Region> *v = new std::vector<Region>;
  return *v;
}

int phdr_map(struct dl_phdr_info *info, std::size_t, void *data) {
  bool &first = *static_cast<bool *>(data);
  std::uintptr_t lo = ~std::uintptr_t(0), hi = 0;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) &ph = info->dlpi_phdr[i];
    if (ph.p_type == PT_TLS && ph.p_memsz) {
      std::uintptr_t al = ph.p_align ? ph.p_align : 1;
      g_tls_below = (g_tls_below + ph.p_memsz + al - 1) / al * al;
    }
    if (ph.p_type != PT_LOAD)
      continue;
    std::uintptr_t s = info->dlpi_addr + ph.p_vaddr, e = s + ph.p_memsz;
    if (first) {
      lo = std::min(lo, s);
      hi = std::max(hi, e);
      const int k = g_nro.load(std::memory_order_relaxed);
      if (!(ph.p_flags & PF_W) && k < kMaxReadOnly) {
        g_ro_lo[k] = s;
        g_ro_hi[k] = e;
        g_nro.store(k + 1, std::memory_order_release);
      }
    } else {
      g_ranges[s] = e;
    }
  }
  if (first && hi > lo) {
    pkemu_known_memory.image_lo = lo;
    pkemu_known_memory.image_span = hi - lo;
  }
  first = false;
  return 0;
}

void init_map() {
  std::lock_guard<std::mutex> lk(g_map_mu);
  bool first = true;
  dl_iterate_phdr(phdr_map, &first);
  g_tls_below += 4096; // alignment and the surplus glibc keeps
  // PKEMU_DEVICE_CHECK=0: no memory check at all.
  if (const char *v = std::getenv("PKEMU_DEVICE_CHECK"))
    if (v[0] == '0') {
      pkemu_known_memory.image_lo = 0;
      pkemu_known_memory.image_span = ~std::uintptr_t(0);
    }
}

void range_add(std::uintptr_t lo, std::size_t n) {
  if (!n)
    return;
  bool was = t_in_map;
  t_in_map = true;
  {
    std::lock_guard<std::mutex> lk(g_map_mu);
    g_ranges[lo] = lo + n;
  }
  t_in_map = was;
}
void range_remove(std::uintptr_t lo) {
  bool was = t_in_map;
  t_in_map = true;
  {
    std::lock_guard<std::mutex> lk(g_map_mu);
    g_ranges.erase(lo);
  }
  t_in_map = was;
  pkemu_t_ok_size = 0;
}
} // namespace

void memory_map_thread() {
  static PKEMU_TLS bool done = false;
  std::call_once(g_map_once, init_map);
  if (done)
    return;
  done = true;
  std::uintptr_t tp = 0;
#if defined(__x86_64__)
  asm("mov %%fs:0, %0" : "=r"(tp));
#elif defined(__aarch64__)
  asm("mrs %0, tpidr_el0" : "=r"(tp));
#endif
  if (tp) {
#if defined(__x86_64__)
    pkemu_t_tls_lo = tp - g_tls_below;
    pkemu_t_tls_size = g_tls_below + 64;
#else
    pkemu_t_tls_lo = tp;
    pkemu_t_tls_size = g_tls_below + 64;
#endif
  }
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) == 0) {
    void *addr = nullptr;
    std::size_t size = 0;
    if (pthread_attr_getstack(&attr, &addr, &size) == 0)
      range_add((std::uintptr_t)addr, size);
    pthread_attr_destroy(&attr);
  }
}

bool image_read_only(std::uintptr_t a, std::size_t n) {
  const int k = g_nro.load(std::memory_order_acquire);
  for (int i = 0; i < k; ++i)
    if (a >= g_ro_lo[i] && a + n <= g_ro_hi[i])
      return true;
  return false;
}

void device_var_in_place(const void *p, std::size_t n) {
  std::lock_guard<std::mutex> lk(var_mu());
  for (const Region &r : in_place())
    if (r.addr == (std::uintptr_t)p && r.size == n)
      return;
  in_place().push_back(Region{(std::uintptr_t)p, n});
}

// The plugin's ProgramGlobalsPass: a global that device code reads without a
// hook.
extern "C" void pkemu_register_region(const void *p, std::size_t n) {
  device_var_in_place(p, n);
}

void device_regions(std::vector<Region> &out) {
  out.clear();
  {
    std::lock_guard<std::mutex> lk(g_heap_mu);
    for (unsigned s = 0; s < g_nslots; ++s)
      if (g_slots[s].state == DeviceSlot::kLive)
        out.push_back(Region{slot_base(s), g_slots[s].size});
  }
  std::lock_guard<std::mutex> lk(var_mu());
  out.insert(out.end(), in_place().begin(), in_place().end());
}

bool memory_allowed(std::uintptr_t a, std::size_t n, std::uintptr_t &lo,
                    std::uintptr_t &size) {
  std::call_once(g_map_once, init_map);
  bool was = t_in_map;
  t_in_map = true;
  bool ok = false;
  {
    std::lock_guard<std::mutex> lk(g_map_mu);
    auto it = g_ranges.upper_bound(a);
    if (it != g_ranges.begin()) {
      --it;
      if (a >= it->first && a + n <= it->second) {
        lo = it->first;
        size = it->second - it->first;
        ok = true;
      }
    }
  }
  t_in_map = was;
  return ok;
}

char *stack_alloc(std::size_t n) {
  {
    std::lock_guard<std::mutex> lk(g_stack_mu);
    if (!pkemu_known_memory.stack_span) {
      for (std::size_t span = std::size_t(1) << 40; span >= (1u << 30);
           span /= 4) {
        void *p = mmap(nullptr, span, PROT_NONE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p != MAP_FAILED) {
          pkemu_known_memory.stack_lo = (std::uintptr_t)p;
          pkemu_known_memory.stack_span = span;
          break;
        }
      }
    }
    if (g_stack_next + n <= pkemu_known_memory.stack_span) {
      char *p = (char *)(pkemu_known_memory.stack_lo + g_stack_next);
      if (mprotect(p, n, PROT_READ | PROT_WRITE) == 0) {
        g_stack_next += n;
        return p;
      }
    }
  }
  // The range is used up: a stack of its own, in the map.
  void *p = mmap(nullptr, n, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED)
    return nullptr;
  range_add((std::uintptr_t)p, n);
  return static_cast<char *>(p);
}

void host_range_add(void *p, std::size_t n) { range_add((std::uintptr_t)p, n); }
void host_range_remove(void *p) { range_remove((std::uintptr_t)p); }

// Kernels that allocate (malloc/new in device code): the block is recorded
// while a kernel runs on this thread, so that the kernel may use it.
void kernel_alloc(void *p, std::size_t n) {
  if (!p || t_in_map)
    return;
  g_kernel_allocs.store(true, std::memory_order_relaxed);
  range_add((std::uintptr_t)p, n ? n : 1);
}
void kernel_free(void *p) {
  if (!p || t_in_map || !g_kernel_allocs.load(std::memory_order_relaxed))
    return;
  range_remove((std::uintptr_t)p);
}

} // namespace detail
} // namespace pkemu

// malloc and friends: glibc's, recording what kernels allocate.
extern "C" {
void *__libc_malloc(std::size_t);
void *__libc_calloc(std::size_t, std::size_t);
void *__libc_realloc(void *, std::size_t);
void __libc_free(void *);

void *malloc(std::size_t n) {
  void *p = __libc_malloc(n);
  if (__builtin_expect(pkemu::detail::pkemu_t_arena_size != 0, 0))
    pkemu::detail::kernel_alloc(p, n);
  return p;
}
void *calloc(std::size_t c, std::size_t n) {
  void *p = __libc_calloc(c, n);
  if (__builtin_expect(pkemu::detail::pkemu_t_arena_size != 0, 0))
    pkemu::detail::kernel_alloc(p, c * n);
  return p;
}
void *realloc(void *q, std::size_t n) {
  pkemu::detail::kernel_free(q);
  void *p = __libc_realloc(q, n);
  if (__builtin_expect(pkemu::detail::pkemu_t_arena_size != 0, 0))
    pkemu::detail::kernel_alloc(p, n);
  return p;
}
void free(void *p) {
  pkemu::detail::kernel_free(p);
  __libc_free(p);
}
}
