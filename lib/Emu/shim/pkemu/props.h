//===- props.h - device properties ------------------------------*- C++ -*-===//
// Rules: none (emulator runtime)
//
// pkemu: device properties shared by the CUDA and HIP shims.
//
//===----------------------------------------------------------------------===//
#pragma once
#include <array>
#include <cstring>
#include <map>

#include "../../include/pkemu/host_api.h"

namespace pkemu {
namespace detail {
template <class P> inline void fill_props(P *p) {
  std::memset(p, 0, sizeof(*p));
  std::strcpy(p->name, "pkemu");
  p->totalGlobalMem = api::kTotalGlobalMem;
  p->sharedMemPerBlock = api::kSharedPerBlock;
  p->regsPerBlock = 65536;
  p->warpSize = api::warp_size();
  p->memPitch = (std::size_t)1 << 31;
  p->maxThreadsPerBlock = 1024;
  p->maxThreadsDim[0] = 1024;
  p->maxThreadsDim[1] = 1024;
  p->maxThreadsDim[2] = 64;
  p->maxGridSize[0] = 0x7fffffff;
  p->maxGridSize[1] = 65535;
  p->maxGridSize[2] = 65535;
  p->clockRate = 1000000;
  p->totalConstMem = 65536;
  p->textureAlignment = 512;
  p->multiProcessorCount = api::multiprocessor_count();
  p->canMapHostMemory = 1;
  p->concurrentKernels = 1;
  p->unifiedAddressing = 1;
  p->memoryClockRate = 1000000;
  p->memoryBusWidth = 256;
  p->l2CacheSize = 4 << 20;
  p->maxThreadsPerMultiProcessor = 2048;
  p->sharedMemPerMultiprocessor = api::kSharedPerSM;
  p->regsPerMultiprocessor = 65536;
  p->managedMemory = 1;
  p->cooperativeLaunch = 1;
  p->sharedMemPerBlockOptin = api::kSharedPerBlockOptin;
  p->maxBlocksPerMultiProcessor = 32;
  // L2 persistence hints are accepted (cudaStreamSetAttribute): the limits
  // of a device that has them.
  p->persistingL2CacheMaxSize = 4 << 20;
  p->accessPolicyMaxWindowSize = 128 << 20;
}
// cudaDeviceSetLimit / hipDeviceSetLimit: what was set, read back by the
// Get forms (the emulator's device heap and stack do not depend on them).
inline std::size_t *device_limits() {
  static std::size_t L[7] = {1024, 1 << 20, 8 << 20, 2, 2048, 64, 0};
  return L;
}
// Stream attributes (cudaStreamSetAttribute): what was set, per stream,
// read back by the Get form; values are unions of up to 64 bytes.
template <class V> inline V *stream_attrs_of(const void *s) {
  static std::map<const void *, std::array<V, 9>> M;
  return M[s].data();
}
// Memory pools (cudaMemPool_t / hipMemPool_t): the attributes set are read
// back (the reuse flags, the release threshold, the high-water marks reset
// to 0); allocations from a pool are device buffers like any other.
struct MemPool {
  unsigned long long attr[9] = {0, 1, 1, 1, 0, 0, 0, 0, 0};
};
inline MemPool *default_mem_pool() {
  static MemPool P;
  return &P;
}
inline MemPool *&current_mem_pool() {
  static MemPool *C = default_mem_pool();
  return C;
}
// The attribute's kind: 1 int (the reuse flags), 2 unsigned 64-bit and
// settable, 3 unsigned 64-bit and settable to 0 only (high-water marks),
// 4 read only, 0 none.
inline int mem_pool_attr_kind(int a) {
  return a >= 1 && a <= 3   ? 1
         : a == 4           ? 2
         : a == 6 || a == 8 ? 3
         : a == 5 || a == 7 ? 4
                            : 0;
}
inline bool mem_pool_set(MemPool *p, int a, const void *v) {
  int k = mem_pool_attr_kind(a);
  if (!p || !v || k == 0 || k == 4)
    return false;
  unsigned long long x = k == 1 ? (unsigned long long)*(const int *)v
                                : *(const unsigned long long *)v;
  if (k == 3 && x != 0)
    return false;
  p->attr[a] = x;
  return true;
}
inline bool mem_pool_get(const MemPool *p, int a, void *v) {
  int k = mem_pool_attr_kind(a);
  if (!p || !v || k == 0)
    return false;
  if (k == 1)
    *(int *)v = (int)p->attr[a];
  else
    *(unsigned long long *)v = p->attr[a];
  return true;
}
inline int device_attr(int attr) {
  switch (attr) {
  case 1:
    return 1024;
  case 2:
    return 1024;
  case 3:
    return 1024;
  case 4:
    return 64;
  case 5:
    return 0x7fffffff;
  case 6:
  case 7:
    return 65535;
  case 8:
    return (int)api::kSharedPerBlock;
  case 9:
    return 65536;
  case 10:
    return api::warp_size();
  case 12:
    return 65536;
  case 13:
    return 1000000;
  case 16:
    return api::multiprocessor_count();
  case 38:
    return 4 << 20;
  case 39:
    return 2048;
  case 81:
    return (int)api::kSharedPerSM;
  case 95: // cudaDevAttrCooperativeLaunch / hipDeviceAttributeCooperativeLaunch
    return 1;
  // Copies overlap kernels, kernels run concurrently, host memory is mapped,
  // one address space, managed memory accessed concurrently by host and
  // device (all of it is host memory), stream priorities accepted.
  case 15: // GpuOverlap
  case 19: // CanMapHostMemory
  case 31: // ConcurrentKernels
  case 41: // UnifiedAddressing
  case 78: // StreamPrioritiesSupported
  case 83: // ManagedMemory
  case 89: // ConcurrentManagedAccess
  case 115: // MemoryPoolsSupported (cudaMallocAsync, memory pools)
    return 1;
  case 36: // MemoryClockRate, kHz
    return 1000000;
  case 37: // GlobalMemoryBusWidth, bits
    return 256;
  case 40: // AsyncEngineCount
    return 1;
  case 82: // MaxRegistersPerMultiprocessor
    return 65536;
  case 106: // MaxBlocksPerMultiprocessor
    return 32;
  case 97:
    return (int)api::kSharedPerBlockOptin;
  default:
    return 0;
  }
}
} // namespace detail
} // namespace pkemu
