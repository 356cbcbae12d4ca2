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
//===----------------------------------------------------------------------===//
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <mutex>
#include <sys/mman.h>
#include <unistd.h>

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
// Slots a buffer of n bytes spans when it starts at the middle of the first.
std::uint64_t slots_for(std::size_t n) {
  std::uint64_t whole = std::uint64_t(1) << kDeviceSlotShift;
  if (n <= kDeviceSlotHalf)
    return 1;
  return 1 + (((std::uint64_t)n - kDeviceSlotHalf) + whole - 1) / whole;
}

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
    void *p = mmap(nullptr, span, PROT_NONE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p != MAP_FAILED) {
      g_nslots = n;
      pkemu_device_heap.lo = (std::uintptr_t)p;
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
  static std::uint64_t serial = 0;
  DeviceSlot &d = g_slots[s];
  d.size = n;
  d.mapped = len;
  d.pc = pc;
  d.serial = ++serial;
  d.state = DeviceSlot::kLive;
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

} // namespace detail
} // namespace pkemu
