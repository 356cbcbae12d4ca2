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
// reported too until the slot is reused. Buffers of more than 2 GiB, and
// every buffer once all slots are taken or when no range can be reserved,
// come from the C heap unchecked.
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
  if (n > kDeviceSlotHalf)
    return nullptr;
  std::lock_guard<std::mutex> lk(g_heap_mu);
  init_heap();
  if (!pkemu_device_heap.span)
    return nullptr;
  unsigned s;
  if (g_next < g_nslots)
    s = g_next++;
  else if (!g_reuse.empty()) {
    s = g_reuse.front();
    g_reuse.pop_front();
  } else
    return nullptr;
  std::uintptr_t P = page_size();
  std::size_t len = ((n ? n : 1) + P - 1) & ~(P - 1);
  void *base = (void *)slot_base(s);
  if (mprotect(base, len, PROT_READ | PROT_WRITE) != 0) {
    g_reuse.push_back(s);
    return nullptr;
  }
  static std::uint64_t serial = 0;
  DeviceSlot &d = g_slots[s];
  d.size = n;
  d.mapped = len;
  d.pc = pc;
  d.serial = ++serial;
  d.state = DeviceSlot::kLive;
  pkemu_device_heap.size[s] = n;
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
  pkemu_device_heap.size[s] = 0;
  d.state = DeviceSlot::kFreed;
  madvise(p, d.mapped, MADV_DONTNEED);
  mprotect(p, d.mapped, PROT_NONE);
  g_reuse.push_back(s);
  return 1;
}

bool device_find(std::uintptr_t a, std::size_t n, DeviceSlot &out,
                 std::int64_t &rel) {
  std::uintptr_t off = a - pkemu_device_heap.lo;
  if (off >= pkemu_device_heap.span)
    return false;
  std::lock_guard<std::mutex> lk(g_heap_mu);
  unsigned s = (unsigned)(off >> kDeviceSlotShift);
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
  (void)n;
  return true;
}

void device_open_pages(std::uintptr_t a, std::size_t n) {
  std::uintptr_t P = page_size();
  std::uintptr_t lo = a & ~(P - 1), hi = (a + (n ? n : 1) + P - 1) & ~(P - 1);
  mprotect((void *)lo, hi - lo, PROT_READ | PROT_WRITE);
}

} // namespace detail
} // namespace pkemu
