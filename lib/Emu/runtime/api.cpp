//===- api.cpp - host API and launch validation ---------------------------===//
// Rules: none (emulator runtime)
//
// Host API (memory, streams, events, devices, errors) and launch validation.
//
//===----------------------------------------------------------------------===//
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <unordered_map>

#include "internal.h"
#include "pkemu/host_api.h"

namespace pkemu {
namespace detail {

int launch_kernel(const LaunchArgs &a) {
  (void)config();
  // After a device assert nothing runs on the device (the error is sticky).
  if (const int s = api::sticky_error())
    return s;
  const dim3 b = a.block, g = a.grid;
  std::uint64_t nt = (std::uint64_t)b.x * b.y * b.z;
  if (nt == 0 || nt > 1024 || b.x > 1024 || b.y > 1024 || b.z > 64 ||
      g.x == 0 || g.y == 0 || g.z == 0 || g.y > 65535 || g.z > 65535 ||
      g.x > 0x7fffffffu)
    return api::set_error(api::kInvalidConfiguration);
  std::size_t limit = std::max<std::size_t>(
      api::kSharedPerBlock, (std::size_t)api::func_max_dynamic_shared(a.fn));
  if (a.shmem > limit)
    return api::set_error(api::kInvalidValue);
  if (a.cooperative) {
    // As CUDA: a cooperative grid must fit on the device at once.
    std::uint64_t per = (std::uint64_t)api::max_active_blocks((int)nt, a.shmem);
    std::uint64_t most = (std::uint64_t)api::multiprocessor_count() * per;
    std::uint64_t nb = (std::uint64_t)g.x * g.y * g.z;
    if (nb > most) {
      Report r;
      r.kind = "cooperative launch too large";
      r.kernel = a.fn;
      r.text = "cooperative launch of " + std::to_string(nb) + " blocks of " +
               std::to_string(nt) +
               " threads refused: the emulated device holds at most " +
               std::to_string(most) +
               " such blocks at once (multiProcessorCount " +
               std::to_string(api::multiprocessor_count()) +
               " x cudaOccupancyMaxActiveBlocksPerMultiprocessor " +
               std::to_string(per) +
               "), so its blocks could not all be resident for "
               "grid_group::sync; the launch returns "
               "cudaErrorCooperativeLaunchTooLarge";
      r.file = a.file ? a.file : "";
      r.line = a.line;
      add_report(std::move(r));
      return api::set_error(api::kCooperativeLaunchTooLarge);
    }
  }
  run_launch(a, (std::uint32_t)nt);
  return 0;
}
} // namespace detail

namespace api {

namespace {
thread_local int t_last_error = 0;
std::mutex g_mu;
std::unordered_map<void *, std::size_t> g_dev_allocs;
std::unordered_map<const void *, int> g_func_smem;
int g_device = 0;

struct Event {
  std::uint64_t ns = 0;
  bool recorded = false;
};
struct Stream {
  int dummy = 0;
};

} // namespace

int set_error(int e) {
  if (e)
    t_last_error = e;
  return e;
}
int get_last_error() {
  int e = t_last_error;
  t_last_error = 0;
  return e;
}
int peek_last_error() { return t_last_error; }

namespace {
std::atomic<int> g_sticky{0};
}
void set_sticky_error(int e) {
  int none = 0;
  g_sticky.compare_exchange_strong(none, e, std::memory_order_acq_rel);
}
int sticky_error() { return g_sticky.load(std::memory_order_acquire); }

const char *error_name(int e, bool hip) {
  switch (e) {
  case kSuccess:
    return hip ? "hipSuccess" : "cudaSuccess";
  case kInvalidValue:
    return hip ? "hipErrorInvalidValue" : "cudaErrorInvalidValue";
  case kMemoryAllocation:
    return hip ? "hipErrorOutOfMemory" : "cudaErrorMemoryAllocation";
  case kInitializationError:
    return hip ? "hipErrorNotInitialized" : "cudaErrorInitializationError";
  case kInvalidConfiguration:
    return hip ? "hipErrorInvalidConfiguration"
               : "cudaErrorInvalidConfiguration";
  case kInvalidSymbol:
    return hip ? "hipErrorInvalidSymbol" : "cudaErrorInvalidSymbol";
  case kInvalidDevicePointer:
    return hip ? "hipErrorInvalidDevicePointer"
               : "cudaErrorInvalidDevicePointer";
  case kInvalidMemcpyDirection:
    return hip ? "hipErrorInvalidMemcpyDirection"
               : "cudaErrorInvalidMemcpyDirection";
  case kInvalidDeviceFunction:
    return hip ? "hipErrorInvalidDeviceFunction"
               : "cudaErrorInvalidDeviceFunction";
  case kNoDevice:
    return hip ? "hipErrorNoDevice" : "cudaErrorNoDevice";
  case kInvalidDevice:
    return hip ? "hipErrorInvalidDevice" : "cudaErrorInvalidDevice";
  case kInvalidResourceHandle:
    return hip ? "hipErrorInvalidHandle" : "cudaErrorInvalidResourceHandle";
  case kNotReady:
    return hip ? "hipErrorNotReady" : "cudaErrorNotReady";
  case kLaunchOutOfResources:
    return hip ? "hipErrorLaunchOutOfResources"
               : "cudaErrorLaunchOutOfResources";
  case kLaunchFailure:
    return hip ? "hipErrorLaunchFailure" : "cudaErrorLaunchFailure";
  case kNotSupported:
    return hip ? "hipErrorNotSupported" : "cudaErrorNotSupported";
  case kCooperativeLaunchTooLarge:
    return hip ? "hipErrorCooperativeLaunchTooLarge"
               : "cudaErrorCooperativeLaunchTooLarge";
  case kAssert:
    return hip ? "hipErrorAssert" : "cudaErrorAssert";
  default:
    return hip ? "hipErrorUnknown" : "cudaErrorUnknown";
  }
}

const char *error_string(int e) {
  switch (e) {
  case kSuccess:
    return "no error";
  case kInvalidValue:
    return "invalid argument";
  case kMemoryAllocation:
    return "out of memory";
  case kInitializationError:
    return "initialization error";
  case kInvalidConfiguration:
    return "invalid configuration argument";
  case kInvalidSymbol:
    return "invalid device symbol";
  case kInvalidDevicePointer:
    return "invalid device pointer";
  case kInvalidMemcpyDirection:
    return "invalid copy direction for memcpy";
  case kInvalidDeviceFunction:
    return "invalid device function";
  case kNoDevice:
    return "no CUDA-capable device is detected";
  case kInvalidDevice:
    return "invalid device ordinal";
  case kInvalidResourceHandle:
    return "invalid resource handle";
  case kNotReady:
    return "device not ready";
  case kLaunchOutOfResources:
    return "too many resources requested for launch";
  case kLaunchFailure:
    return "unspecified launch failure";
  case kNotSupported:
    return "operation not supported";
  case kCooperativeLaunchTooLarge:
    return "too many blocks in cooperative launch";
  case kAssert:
    return "device-side assert triggered";
  default:
    return "unknown error";
  }
}

int dev_malloc(void **p, std::size_t n) {
  if (!p)
    return set_error(kInvalidValue);
  // Checked buffers first (device_memory.cpp); the C heap when none is left.
  if (void *m = detail::device_alloc(n, __builtin_return_address(0))) {
    *p = m;
    return 0;
  }
  void *m = nullptr;
  if (posix_memalign(&m, 256, n ? n : 1) != 0) {
    *p = nullptr;
    return set_error(kMemoryAllocation);
  }
  *p = m;
  detail::host_range_add(m, n ? n : 1); // unchecked, but device memory
  std::lock_guard<std::mutex> lk(g_mu);
  g_dev_allocs[m] = n;
  return 0;
}

int dev_free(void *p) {
  if (!p)
    return 0;
  if (int r = detail::device_release(p))
    return r > 0 ? 0 : set_error(kInvalidValue);
  {
    std::lock_guard<std::mutex> lk(g_mu);
    auto it = g_dev_allocs.find(p);
    if (it == g_dev_allocs.end())
      return set_error(kInvalidValue);
    g_dev_allocs.erase(it);
  }
  detail::host_range_remove(p);
  std::free(p);
  return 0;
}

int host_malloc(void **p, std::size_t n) {
  if (!p)
    return set_error(kInvalidValue);
  void *m = nullptr;
  if (posix_memalign(&m, 256, n ? n : 1) != 0)
    return set_error(kMemoryAllocation);
  detail::host_range_add(m, n ? n : 1); // the device may access it
  *p = m;
  return 0;
}
int host_free(void *p) {
  if (p)
    detail::host_range_remove(p);
  std::free(p);
  return 0;
}
int host_register(void *p, std::size_t n) {
  if (!p || !n)
    return set_error(kInvalidValue);
  detail::host_range_add(p, n);
  return 0;
}
int host_unregister(void *p) {
  if (!p)
    return set_error(kInvalidValue);
  detail::host_range_remove(p);
  return 0;
}

int memcpy(void *d, const void *s, std::size_t n) {
  if (n && (!d || !s))
    return set_error(kInvalidValue);
  // A copy that does not fit its device buffer is reported and not done.
  bool bad_s = detail::device_range_bad((std::uintptr_t)s, n),
       bad_d = detail::device_range_bad((std::uintptr_t)d, n);
  if (bad_s)
    detail::device_oob(s, n, false, __builtin_return_address(0),
                       "a memory copy reads");
  if (bad_d)
    detail::device_oob(d, n, true, __builtin_return_address(0),
                       "a memory copy writes");
  if (bad_s || bad_d)
    return set_error(kInvalidValue);
  if (n)
    std::memmove(d, s, n);
  return 0;
}
int memset(void *d, int v, std::size_t n) {
  if (n && !d)
    return set_error(kInvalidValue);
  if (detail::device_range_bad((std::uintptr_t)d, n)) {
    detail::device_oob(d, n, true, __builtin_return_address(0),
                       "a memory set writes");
    return set_error(kInvalidValue);
  }
  if (n)
    std::memset(d, v, n);
  return 0;
}
int memcpy2d(void *dst, std::size_t dpitch, const void *src, std::size_t spitch,
             std::size_t w, std::size_t h) {
  if (w > dpitch || w > spitch)
    return set_error(kInvalidValue);
  for (std::size_t r = 0; r < h; ++r)
    std::memmove(static_cast<char *>(dst) + r * dpitch,
                 static_cast<const char *>(src) + r * spitch, w);
  return 0;
}
int memset2d(void *dst, std::size_t pitch, int v, std::size_t w,
             std::size_t h) {
  for (std::size_t r = 0; r < h; ++r)
    std::memset(static_cast<char *>(dst) + r * pitch, v, w);
  return 0;
}
int malloc_pitch(void **p, std::size_t *pitch, std::size_t w, std::size_t h) {
  std::size_t pt = (w + 255) & ~std::size_t(255);
  if (!pitch)
    return set_error(kInvalidValue);
  *pitch = pt;
  return dev_malloc(p, pt * h);
}
int mem_get_info(std::size_t *free_b, std::size_t *total_b) {
  if (free_b)
    *free_b = kTotalGlobalMem / 2;
  if (total_b)
    *total_b = kTotalGlobalMem;
  return 0;
}
int device_synchronize() { return 0; }
int device_reset() { return 0; }

// Work is executed synchronously, in issue order, so streams only need
// identity.
int stream_create(void **s) {
  if (!s)
    return set_error(kInvalidValue);
  *s = new Stream();
  return 0;
}
int stream_destroy(void *s) {
  delete static_cast<Stream *>(s);
  return 0;
}
int stream_synchronize(void *) { return 0; }
int stream_query(void *) { return 0; }
int event_create(void **e) {
  if (!e)
    return set_error(kInvalidValue);
  *e = new Event();
  return 0;
}
int event_destroy(void *e) {
  delete static_cast<Event *>(e);
  return 0;
}
int event_record(void *e, void *) {
  if (!e)
    return set_error(kInvalidResourceHandle);
  auto *ev = static_cast<Event *>(e);
  ev->ns = detail::now_ns();
  ev->recorded = true;
  return 0;
}
int event_synchronize(void *e) {
  return e ? 0 : set_error(kInvalidResourceHandle);
}
int event_query(void *e) { return e ? 0 : set_error(kInvalidResourceHandle); }
int event_elapsed(float *ms, void *a, void *b) {
  auto *ea = static_cast<Event *>(a);
  auto *eb = static_cast<Event *>(b);
  if (!ms || !ea || !eb)
    return set_error(kInvalidResourceHandle);
  if (!ea->recorded || !eb->recorded)
    return set_error(kInvalidResourceHandle);
  *ms = (float)((double)((std::int64_t)eb->ns - (std::int64_t)ea->ns) / 1e6);
  return 0;
}

int get_device_count(int *n) {
  if (!n)
    return set_error(kInvalidValue);
  *n = 1;
  return 0;
}
int set_device(int d) {
  if (d != 0)
    return set_error(kInvalidDevice);
  g_device = d;
  return 0;
}
int get_device(int *d) {
  if (!d)
    return set_error(kInvalidValue);
  *d = g_device;
  return 0;
}
int warp_size() { return detail::config().warp; }
int multiprocessor_count() { return detail::config().workers; }
int max_active_blocks(int block_threads, std::size_t shmem) {
  if (block_threads <= 0)
    return 0;
  std::size_t n = std::min(32, 2048 / block_threads);
  if (shmem)
    n = std::min(n, kSharedPerSM / shmem);
  return (int)n;
}

int func_set_max_dynamic_shared(const void *fn, int bytes) {
  if (bytes < 0 || (std::size_t)bytes > kSharedPerBlockOptin)
    return set_error(kInvalidValue);
  std::lock_guard<std::mutex> lk(g_mu);
  g_func_smem[fn] = bytes;
  return 0;
}
int func_max_dynamic_shared(const void *fn) {
  std::lock_guard<std::mutex> lk(g_mu);
  auto it = g_func_smem.find(fn);
  return it == g_func_smem.end() ? 0 : it->second;
}

} // namespace api
} // namespace pkemu
