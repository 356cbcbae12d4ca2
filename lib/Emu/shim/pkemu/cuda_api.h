//===- cuda_api.h - CUDA runtime API ----------------------------*- C++ -*-===//
// Rules: none (emulator runtime)
//
// pkemu: the CUDA runtime API (cuda_runtime.h) on top of the emulator.
//
//===----------------------------------------------------------------------===//
#pragma once
#include <cstddef>
#include <cstring>

#include "../../include/pkemu/host_api.h"
#include "../../include/pkemu/runtime.h"

#ifndef CUDART_VERSION
#define CUDART_VERSION 12040
#endif
#ifndef __CUDACC_VER_MAJOR__
#define __CUDACC_VER_MAJOR__ 12
#define __CUDACC_VER_MINOR__ 4
#define __CUDACC_VER_BUILD__ 0
#endif

enum cudaError {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInitializationError = 3,
  cudaErrorInvalidConfiguration = 9,
  cudaErrorInvalidSymbol = 13,
  cudaErrorInvalidDevicePointer = 17,
  cudaErrorInvalidMemcpyDirection = 21,
  cudaErrorInvalidDeviceFunction = 98,
  cudaErrorNoDevice = 100,
  cudaErrorInvalidDevice = 101,
  cudaErrorInvalidResourceHandle = 400,
  cudaErrorNotReady = 600,
  cudaErrorLaunchOutOfResources = 701,
  cudaErrorAssert = 710,
  cudaErrorLaunchFailure = 719,
  cudaErrorCooperativeLaunchTooLarge = 720,
  cudaErrorNotSupported = 801,
  cudaErrorUnknown = 999
};
typedef enum cudaError cudaError_t;

enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4
};
struct CUstream_st;
struct CUevent_st;
typedef CUstream_st *cudaStream_t;
typedef CUevent_st *cudaEvent_t;
#define cudaStreamLegacy ((cudaStream_t)0x1)
#define cudaStreamPerThread ((cudaStream_t)0x2)
#define cudaStreamDefault 0x00
#define cudaStreamNonBlocking 0x01
#define cudaEventDefault 0x00
#define cudaEventBlockingSync 0x01
#define cudaEventDisableTiming 0x02
#define cudaHostAllocDefault 0x00
#define cudaHostAllocPortable 0x01
#define cudaHostAllocMapped 0x02
#define cudaHostAllocWriteCombined 0x04
#define cudaHostRegisterDefault 0x00
#define cudaHostRegisterPortable 0x01
#define cudaHostRegisterMapped 0x02
#define cudaHostRegisterIoMemory 0x04
#define cudaHostRegisterReadOnly 0x08
#define cudaMemAttachGlobal 0x01
#define cudaMemAttachHost 0x02
#define cudaMemAttachSingle 0x04
#define cudaDeviceScheduleAuto 0x00
#define cudaDeviceScheduleSpin 0x01
#define cudaDeviceScheduleYield 0x02
#define cudaDeviceScheduleBlockingSync 0x04
#define cudaDeviceBlockingSync 0x04
#define cudaDeviceMapHost 0x08
#define cudaDeviceLmemResizeToMax 0x10
#define cudaCpuDeviceId (-1)

enum cudaFuncAttribute {
  cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
  cudaFuncAttributePreferredSharedMemoryCarveout = 9,
};
enum cudaFuncCache {
  cudaFuncCachePreferNone = 0,
  cudaFuncCachePreferShared = 1,
  cudaFuncCachePreferL1 = 2,
  cudaFuncCachePreferEqual = 3
};
enum cudaSharedMemConfig {
  cudaSharedMemBankSizeDefault = 0,
  cudaSharedMemBankSizeFourByte = 1,
  cudaSharedMemBankSizeEightByte = 2
};
enum cudaMemoryAdvise {
  cudaMemAdviseSetReadMostly = 1,
  cudaMemAdviseUnsetReadMostly,
  cudaMemAdviseSetPreferredLocation,
  cudaMemAdviseUnsetPreferredLocation,
  cudaMemAdviseSetAccessedBy,
  cudaMemAdviseUnsetAccessedBy
};
enum cudaDeviceAttr {
  cudaDevAttrMaxThreadsPerBlock = 1,
  cudaDevAttrMaxBlockDimX = 2,
  cudaDevAttrMaxBlockDimY = 3,
  cudaDevAttrMaxBlockDimZ = 4,
  cudaDevAttrMaxGridDimX = 5,
  cudaDevAttrMaxGridDimY = 6,
  cudaDevAttrMaxGridDimZ = 7,
  cudaDevAttrMaxSharedMemoryPerBlock = 8,
  cudaDevAttrTotalConstantMemory = 9,
  cudaDevAttrWarpSize = 10,
  cudaDevAttrMaxRegistersPerBlock = 12,
  cudaDevAttrClockRate = 13,
  cudaDevAttrMultiProcessorCount = 16,
  cudaDevAttrGpuOverlap = 15,
  cudaDevAttrKernelExecTimeout = 17,
  cudaDevAttrIntegrated = 18,
  cudaDevAttrCanMapHostMemory = 19,
  cudaDevAttrComputeMode = 20,
  cudaDevAttrConcurrentKernels = 31,
  cudaDevAttrEccEnabled = 32,
  cudaDevAttrMemoryClockRate = 36,
  cudaDevAttrGlobalMemoryBusWidth = 37,
  cudaDevAttrAsyncEngineCount = 40,
  cudaDevAttrUnifiedAddressing = 41,
  cudaDevAttrStreamPrioritiesSupported = 78,
  cudaDevAttrMaxRegistersPerMultiprocessor = 82,
  cudaDevAttrManagedMemory = 83,
  cudaDevAttrPageableMemoryAccess = 88,
  cudaDevAttrConcurrentManagedAccess = 89,
  cudaDevAttrMaxBlocksPerMultiprocessor = 106,
  cudaDevAttrComputeCapabilityMajor = 75,
  cudaDevAttrComputeCapabilityMinor = 76,
  cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81,
  cudaDevAttrMaxThreadsPerMultiProcessor = 39,
  cudaDevAttrL2CacheSize = 38,
  cudaDevAttrMaxSharedMemoryPerBlockOptin = 97,
  cudaDevAttrCooperativeLaunch = 95,
  cudaDevAttrMemoryPoolsSupported = 115,
  cudaDevAttrMemoryPoolSupportedHandleTypes = 119,
};
enum cudaComputeMode {
  cudaComputeModeDefault = 0,
  cudaComputeModeExclusive = 1,
  cudaComputeModeProhibited = 2,
  cudaComputeModeExclusiveProcess = 3
};
enum cudaMemoryType {
  cudaMemoryTypeUnregistered = 0,
  cudaMemoryTypeHost = 1,
  cudaMemoryTypeDevice = 2,
  cudaMemoryTypeManaged = 3
};
struct cudaPointerAttributes {
  enum cudaMemoryType type;
  int device;
  void *devicePointer;
  void *hostPointer;
};
struct cudaFuncAttributes {
  std::size_t sharedSizeBytes, constSizeBytes, localSizeBytes;
  int maxThreadsPerBlock, numRegs, ptxVersion, binaryVersion, cacheModeCA,
      maxDynamicSharedSizeBytes, preferredShmemCarveout;
};

struct cudaDeviceProp {
  char name[256];
  char uuid[16];
  std::size_t totalGlobalMem;
  std::size_t sharedMemPerBlock;
  int regsPerBlock;
  int warpSize;
  std::size_t memPitch;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  int clockRate;
  std::size_t totalConstMem;
  int major;
  int minor;
  std::size_t textureAlignment;
  std::size_t texturePitchAlignment;
  int deviceOverlap;
  int multiProcessorCount;
  int kernelExecTimeoutEnabled;
  int integrated;
  int canMapHostMemory;
  int computeMode;
  int concurrentKernels;
  int ECCEnabled;
  int pciBusID;
  int pciDeviceID;
  int pciDomainID;
  int tccDriver;
  int asyncEngineCount;
  int unifiedAddressing;
  int memoryClockRate;
  int memoryBusWidth;
  int l2CacheSize;
  int persistingL2CacheMaxSize;
  int maxThreadsPerMultiProcessor;
  int streamPrioritiesSupported;
  int globalL1CacheSupported;
  int localL1CacheSupported;
  std::size_t sharedMemPerMultiprocessor;
  int regsPerMultiprocessor;
  int managedMemory;
  int isMultiGpuBoard;
  int multiGpuBoardGroupID;
  int singleToDoublePrecisionPerfRatio;
  int pageableMemoryAccess;
  int concurrentManagedAccess;
  int computePreemptionSupported;
  int canUseHostPointerForRegisteredMem;
  int cooperativeLaunch;
  int cooperativeMultiDeviceLaunch;
  std::size_t sharedMemPerBlockOptin;
  int pageableMemoryAccessUsesHostPageTables;
  int directManagedMemAccessFromHost;
  int maxBlocksPerMultiProcessor;
  int accessPolicyMaxWindowSize;
  std::size_t reservedSharedMemPerBlock;
};

#include "props.h"

#define PKEMU_CE(x) ((cudaError_t)::pkemu::api::with_sticky(x))
inline cudaError_t cudaGetLastError() {
  return PKEMU_CE(pkemu::api::get_last_error());
}
inline cudaError_t cudaPeekAtLastError() {
  return PKEMU_CE(pkemu::api::peek_last_error());
}
inline const char *cudaGetErrorString(cudaError_t e) {
  return pkemu::api::error_string(e);
}
inline const char *cudaGetErrorName(cudaError_t e) {
  return pkemu::api::error_name(e, false);
}

inline cudaError_t cudaMalloc(void **p, std::size_t n) {
  return PKEMU_CE(pkemu::api::dev_malloc(p, n));
}
template <class T> inline cudaError_t cudaMalloc(T **p, std::size_t n) {
  return cudaMalloc((void **)p, n);
}
inline cudaError_t cudaMallocManaged(void **p, std::size_t n,
                                     unsigned = cudaMemAttachGlobal) {
  return PKEMU_CE(pkemu::api::dev_malloc(p, n));
}
template <class T>
inline cudaError_t cudaMallocManaged(T **p, std::size_t n,
                                     unsigned f = cudaMemAttachGlobal) {
  return cudaMallocManaged((void **)p, n, f);
}
inline cudaError_t cudaMallocHost(void **p, std::size_t n) {
  return PKEMU_CE(pkemu::api::host_malloc(p, n));
}
// cuda_runtime.h's C++ forms: the flags of cudaHostAlloc.
inline cudaError_t cudaMallocHost(void **p, std::size_t n, unsigned f) {
  (void)f;
  return PKEMU_CE(pkemu::api::host_malloc(p, n));
}
template <class T>
inline cudaError_t cudaMallocHost(T **p, std::size_t n, unsigned f = 0) {
  return cudaMallocHost((void **)p, n, f);
}
inline cudaError_t cudaHostAlloc(void **p, std::size_t n, unsigned) {
  return PKEMU_CE(pkemu::api::host_malloc(p, n));
}
template <class T>
inline cudaError_t cudaHostAlloc(T **p, std::size_t n, unsigned f) {
  return cudaHostAlloc((void **)p, n, f);
}
inline cudaError_t cudaMallocPitch(void **p, std::size_t *pitch, std::size_t w,
                                   std::size_t h) {
  return PKEMU_CE(pkemu::api::malloc_pitch(p, pitch, w, h));
}
template <class T>
inline cudaError_t cudaMallocPitch(T **p, std::size_t *pitch, std::size_t w,
                                   std::size_t h) {
  return cudaMallocPitch((void **)p, pitch, w, h);
}
inline cudaError_t cudaFree(void *p) {
  return PKEMU_CE(pkemu::api::dev_free(p));
}
// Stream-ordered allocation: the work queued on the stream before a free
// finishes first; an allocation is usable at once (the emulator's launches
// complete before the next call returns).
inline cudaError_t cudaStreamSynchronize(cudaStream_t s);
inline cudaError_t cudaMallocAsync(void **p, std::size_t n, cudaStream_t) {
  return cudaMalloc(p, n);
}
template <class T>
inline cudaError_t cudaMallocAsync(T **p, std::size_t n, cudaStream_t s) {
  return cudaMallocAsync((void **)p, n, s);
}
inline cudaError_t cudaFreeAsync(void *p, cudaStream_t s) {
  cudaError_t e = cudaStreamSynchronize(s);
  return e != cudaSuccess ? e : cudaFree(p);
}
// Stream-ordered memory pools (CUDA 11.2+): see pkemu::detail::MemPool.
typedef pkemu::detail::MemPool *cudaMemPool_t;
enum cudaMemPoolAttr {
  cudaMemPoolReuseFollowEventDependencies = 0x1,
  cudaMemPoolReuseAllowOpportunistic = 0x2,
  cudaMemPoolReuseAllowInternalDependencies = 0x3,
  cudaMemPoolAttrReleaseThreshold = 0x4,
  cudaMemPoolAttrReservedMemCurrent = 0x5,
  cudaMemPoolAttrReservedMemHigh = 0x6,
  cudaMemPoolAttrUsedMemCurrent = 0x7,
  cudaMemPoolAttrUsedMemHigh = 0x8
};
enum cudaMemLocationType {
  cudaMemLocationTypeInvalid = 0,
  cudaMemLocationTypeDevice = 1
};
struct cudaMemLocation {
  enum cudaMemLocationType type;
  int id;
};
enum cudaMemAllocationType {
  cudaMemAllocationTypeInvalid = 0,
  cudaMemAllocationTypePinned = 1
};
enum cudaMemAllocationHandleType {
  cudaMemHandleTypeNone = 0,
  cudaMemHandleTypePosixFileDescriptor = 1
};
struct cudaMemPoolProps {
  enum cudaMemAllocationType allocType;
  enum cudaMemAllocationHandleType handleTypes;
  struct cudaMemLocation location;
  void *win32SecurityAttributes;
  std::size_t maxSize;
  unsigned short usage;
  unsigned char reserved[54];
};
inline cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *p, int) {
  if (!p)
    return PKEMU_CE(pkemu::api::set_error(pkemu::api::kInvalidValue));
  *p = pkemu::detail::default_mem_pool();
  return cudaSuccess;
}
inline cudaError_t cudaDeviceGetMemPool(cudaMemPool_t *p, int) {
  if (!p)
    return PKEMU_CE(pkemu::api::set_error(pkemu::api::kInvalidValue));
  *p = pkemu::detail::current_mem_pool();
  return cudaSuccess;
}
inline cudaError_t cudaDeviceSetMemPool(int, cudaMemPool_t p) {
  if (!p)
    return PKEMU_CE(pkemu::api::set_error(pkemu::api::kInvalidValue));
  pkemu::detail::current_mem_pool() = p;
  return cudaSuccess;
}
inline cudaError_t cudaMemPoolCreate(cudaMemPool_t *p,
                                     const cudaMemPoolProps *props) {
  if (!p || !props || props->allocType != cudaMemAllocationTypePinned)
    return PKEMU_CE(pkemu::api::set_error(pkemu::api::kInvalidValue));
  *p = new pkemu::detail::MemPool();
  return cudaSuccess;
}
inline cudaError_t cudaMemPoolDestroy(cudaMemPool_t p) {
  if (!p)
    return PKEMU_CE(pkemu::api::set_error(pkemu::api::kInvalidValue));
  if (p != pkemu::detail::default_mem_pool()) {
    if (pkemu::detail::current_mem_pool() == p)
      pkemu::detail::current_mem_pool() = pkemu::detail::default_mem_pool();
    delete p;
  }
  return cudaSuccess;
}
inline cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t p, cudaMemPoolAttr a,
                                           void *v) {
  return pkemu::detail::mem_pool_set(p, (int)a, v)
             ? cudaSuccess
             : PKEMU_CE(pkemu::api::set_error(pkemu::api::kInvalidValue));
}
inline cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t p, cudaMemPoolAttr a,
                                           void *v) {
  return pkemu::detail::mem_pool_get(p, (int)a, v)
             ? cudaSuccess
             : PKEMU_CE(pkemu::api::set_error(pkemu::api::kInvalidValue));
}
inline cudaError_t cudaMemPoolTrimTo(cudaMemPool_t p, std::size_t) {
  return p ? cudaSuccess
           : PKEMU_CE(pkemu::api::set_error(pkemu::api::kInvalidValue));
}
inline cudaError_t cudaMallocFromPoolAsync(void **ptr, std::size_t n,
                                           cudaMemPool_t p, cudaStream_t s) {
  if (!p)
    return PKEMU_CE(pkemu::api::set_error(pkemu::api::kInvalidValue));
  return cudaMallocAsync(ptr, n, s);
}
template <class T>
inline cudaError_t cudaMallocFromPoolAsync(T **ptr, std::size_t n,
                                           cudaMemPool_t p, cudaStream_t s) {
  return cudaMallocFromPoolAsync((void **)ptr, n, p, s);
}
inline cudaError_t cudaFreeHost(void *p) {
  return PKEMU_CE(pkemu::api::host_free(p));
}
inline cudaError_t cudaHostRegister(void *p, std::size_t n, unsigned) {
  return PKEMU_CE(pkemu::api::host_register(p, n));
}
inline cudaError_t cudaHostUnregister(void *p) {
  return PKEMU_CE(pkemu::api::host_unregister(p));
}
inline cudaError_t cudaHostGetDevicePointer(void **d, void *h, unsigned) {
  *d = h;
  return cudaSuccess;
}
inline cudaError_t cudaPointerGetAttributes(cudaPointerAttributes *a,
                                            const void *p) {
  a->type = cudaMemoryTypeDevice;
  a->device = 0;
  a->devicePointer = const_cast<void *>(p);
  a->hostPointer = const_cast<void *>(p);
  return cudaSuccess;
}
inline cudaError_t cudaMemGetInfo(std::size_t *f, std::size_t *t) {
  return PKEMU_CE(pkemu::api::mem_get_info(f, t));
}

inline cudaError_t cudaMemcpy(void *d, const void *s, std::size_t n,
                              cudaMemcpyKind) {
  return PKEMU_CE(pkemu::api::memcpy(d, s, n));
}
inline cudaError_t cudaMemcpyAsync(void *d, const void *s, std::size_t n,
                                   cudaMemcpyKind k, cudaStream_t = 0) {
  return cudaMemcpy(d, s, n, k);
}
inline cudaError_t cudaMemcpy2D(void *d, std::size_t dp, const void *s,
                                std::size_t sp, std::size_t w, std::size_t h,
                                cudaMemcpyKind) {
  return PKEMU_CE(pkemu::api::memcpy2d(d, dp, s, sp, w, h));
}
inline cudaError_t cudaMemcpy2DAsync(void *d, std::size_t dp, const void *s,
                                     std::size_t sp, std::size_t w,
                                     std::size_t h, cudaMemcpyKind k,
                                     cudaStream_t = 0) {
  return cudaMemcpy2D(d, dp, s, sp, w, h, k);
}
inline cudaError_t cudaMemset(void *d, int v, std::size_t n) {
  return PKEMU_CE(pkemu::api::memset(d, v, n));
}
inline cudaError_t cudaMemsetAsync(void *d, int v, std::size_t n,
                                   cudaStream_t = 0) {
  return cudaMemset(d, v, n);
}
inline cudaError_t cudaMemset2D(void *d, std::size_t p, int v, std::size_t w,
                                std::size_t h) {
  return PKEMU_CE(pkemu::api::memset2d(d, p, v, w, h));
}
inline cudaError_t cudaMemPrefetchAsync(const void *, std::size_t, int,
                                        cudaStream_t = 0) {
  return cudaSuccess;
}
inline cudaError_t cudaMemAdvise(const void *, std::size_t, cudaMemoryAdvise,
                                 int) {
  return cudaSuccess;
}

template <class S>
inline cudaError_t cudaMemcpyToSymbol(S &&sym, const void *src, std::size_t n,
                                      std::size_t off = 0,
                                      cudaMemcpyKind = cudaMemcpyHostToDevice) {
  return PKEMU_CE(pkemu::api::memcpy(
      (char *)pkemu::detail::symbol_addr(std::forward<S>(sym)) + off, src, n));
}
template <class S>
inline cudaError_t cudaMemcpyToSymbolAsync(
    S &&sym, const void *src, std::size_t n, std::size_t off = 0,
    cudaMemcpyKind k = cudaMemcpyHostToDevice, cudaStream_t = 0) {
  return cudaMemcpyToSymbol(std::forward<S>(sym), src, n, off, k);
}
template <class S>
inline cudaError_t
cudaMemcpyFromSymbol(void *dst, S &&sym, std::size_t n, std::size_t off = 0,
                     cudaMemcpyKind = cudaMemcpyDeviceToHost) {
  return PKEMU_CE(pkemu::api::memcpy(
      dst, (char *)pkemu::detail::symbol_addr(std::forward<S>(sym)) + off, n));
}
template <class S>
inline cudaError_t cudaMemcpyFromSymbolAsync(
    void *dst, S &&sym, std::size_t n, std::size_t off = 0,
    cudaMemcpyKind k = cudaMemcpyDeviceToHost, cudaStream_t = 0) {
  return cudaMemcpyFromSymbol(dst, std::forward<S>(sym), n, off, k);
}
template <class S> inline cudaError_t cudaGetSymbolAddress(void **p, S &&sym) {
  *p = pkemu::detail::symbol_addr(std::forward<S>(sym));
  return cudaSuccess;
}
template <class S>
inline cudaError_t cudaGetSymbolSize(std::size_t *n, S &&sym) {
  *n = sizeof(sym);
  return cudaSuccess;
}

// The profiler's bracket of a region: no profiler runs under the emulator.
inline cudaError_t cudaProfilerStart() { return cudaSuccess; }
inline cudaError_t cudaProfilerStop() { return cudaSuccess; }
inline cudaError_t cudaDeviceSynchronize() {
  return PKEMU_CE(pkemu::api::device_synchronize());
}
// cudaThreadSynchronize and the other cudaThread* functions are not declared:
// the CUDA toolkit removed them, and nvcc rejects code that calls them
// (port --to cuda replaces them, PK6010).
inline cudaError_t cudaDeviceReset() {
  return PKEMU_CE(pkemu::api::device_reset());
}
inline cudaError_t cudaGetDeviceCount(int *n) {
  return PKEMU_CE(pkemu::api::get_device_count(n));
}
inline cudaError_t cudaSetDevice(int d) {
  return PKEMU_CE(pkemu::api::set_device(d));
}
inline cudaError_t cudaGetDevice(int *d) {
  return PKEMU_CE(pkemu::api::get_device(d));
}
inline cudaError_t cudaSetDeviceFlags(unsigned) { return cudaSuccess; }
inline cudaError_t cudaGetDeviceProperties(cudaDeviceProp *p, int d) {
  if (d != 0)
    return PKEMU_CE(pkemu::api::set_error(pkemu::api::kInvalidDevice));
  pkemu::detail::fill_props(p);
  p->major = 9;
  p->minor = 0;
  return cudaSuccess;
}
inline cudaError_t cudaDeviceGetAttribute(int *v, cudaDeviceAttr a, int d) {
  if (d != 0)
    return PKEMU_CE(pkemu::api::set_error(pkemu::api::kInvalidDevice));
  *v = a == cudaDevAttrComputeCapabilityMajor ? 9
                                              : pkemu::detail::device_attr(a);
  return cudaSuccess;
}
inline cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache) {
  return cudaSuccess;
}
inline cudaError_t cudaDeviceSetSharedMemConfig(cudaSharedMemConfig) {
  return cudaSuccess;
}
enum cudaLimit {
  cudaLimitStackSize = 0x00,
  cudaLimitPrintfFifoSize = 0x01,
  cudaLimitMallocHeapSize = 0x02,
  cudaLimitDevRuntimeSyncDepth = 0x03,
  cudaLimitDevRuntimePendingLaunchCount = 0x04,
  cudaLimitMaxL2FetchGranularity = 0x05,
  cudaLimitPersistingL2CacheSize = 0x06
};
inline cudaError_t cudaDeviceSetLimit(int l, std::size_t v) {
  if (l < 0 || l > 6)
    return PKEMU_CE(pkemu::api::set_error(pkemu::api::kInvalidValue));
  pkemu::detail::device_limits()[l] = v;
  return cudaSuccess;
}
inline cudaError_t cudaDeviceGetLimit(std::size_t *v, int l) {
  if (!v || l < 0 || l > 6)
    return PKEMU_CE(pkemu::api::set_error(pkemu::api::kInvalidValue));
  *v = pkemu::detail::device_limits()[l];
  return cudaSuccess;
}
// L2 persistence hints (CUDA 11+) and the stream attributes that carry
// them: accepted and read back; the emulator has no cache to steer.
enum cudaAccessProperty {
  cudaAccessPropertyNormal = 0,
  cudaAccessPropertyStreaming = 1,
  cudaAccessPropertyPersisting = 2
};
struct cudaAccessPolicyWindow {
  void *base_ptr;
  std::size_t num_bytes;
  float hitRatio;
  enum cudaAccessProperty hitProp;
  enum cudaAccessProperty missProp;
};
enum cudaLaunchAttributeID {
  cudaLaunchAttributeIgnore = 0,
  cudaLaunchAttributeAccessPolicyWindow = 1,
  cudaLaunchAttributeCooperative = 2,
  cudaLaunchAttributeSynchronizationPolicy = 3,
  cudaLaunchAttributePriority = 8
};
union cudaLaunchAttributeValue {
  char pad[64];
  struct cudaAccessPolicyWindow accessPolicyWindow;
  int cooperative;
  int syncPolicy;
  int priority;
};
#define cudaStreamAttrID cudaLaunchAttributeID
#define cudaStreamAttrValue cudaLaunchAttributeValue
#define cudaStreamAttributeAccessPolicyWindow                                  \
  cudaLaunchAttributeAccessPolicyWindow
#define cudaStreamAttributeSynchronizationPolicy                               \
  cudaLaunchAttributeSynchronizationPolicy
#define cudaStreamAttributePriority cudaLaunchAttributePriority
inline cudaError_t cudaStreamSetAttribute(cudaStream_t s,
                                          cudaLaunchAttributeID a,
                                          const cudaLaunchAttributeValue *v) {
  if (!v || (int)a < 0 || (int)a > 8)
    return PKEMU_CE(pkemu::api::set_error(pkemu::api::kInvalidValue));
  pkemu::detail::stream_attrs_of<cudaLaunchAttributeValue>(s)[(int)a] = *v;
  return cudaSuccess;
}
inline cudaError_t cudaStreamGetAttribute(cudaStream_t s,
                                          cudaLaunchAttributeID a,
                                          cudaLaunchAttributeValue *v) {
  if (!v || (int)a < 0 || (int)a > 8)
    return PKEMU_CE(pkemu::api::set_error(pkemu::api::kInvalidValue));
  *v = pkemu::detail::stream_attrs_of<cudaLaunchAttributeValue>(s)[(int)a];
  return cudaSuccess;
}
inline cudaError_t cudaCtxResetPersistingL2Cache() { return cudaSuccess; }
// A callback's calling convention (empty but on Windows).
#define CUDART_CB
// One priority level: the emulator runs every stream's work in order.
inline cudaError_t cudaDeviceGetStreamPriorityRange(int *least, int *greatest) {
  if (least)
    *least = 0;
  if (greatest)
    *greatest = 0;
  return cudaSuccess;
}
inline cudaError_t cudaDriverGetVersion(int *v) {
  *v = CUDART_VERSION;
  return cudaSuccess;
}
inline cudaError_t cudaRuntimeGetVersion(int *v) {
  *v = CUDART_VERSION;
  return cudaSuccess;
}

template <class F>
inline cudaError_t cudaFuncSetAttribute(F *f, cudaFuncAttribute attr, int v) {
  if (attr == cudaFuncAttributeMaxDynamicSharedMemorySize)
    return PKEMU_CE(
        pkemu::api::func_set_max_dynamic_shared((const void *)f, v));
  return cudaSuccess;
}
inline cudaError_t cudaFuncSetAttribute(const void *f, cudaFuncAttribute attr,
                                        int v) {
  if (attr == cudaFuncAttributeMaxDynamicSharedMemorySize)
    return PKEMU_CE(pkemu::api::func_set_max_dynamic_shared(f, v));
  return cudaSuccess;
}
template <class F>
inline cudaError_t cudaFuncSetCacheConfig(F *, cudaFuncCache) {
  return cudaSuccess;
}
template <class F>
inline cudaError_t cudaFuncGetAttributes(cudaFuncAttributes *a, F *f) {
  std::memset(a, 0, sizeof(*a));
  a->maxThreadsPerBlock = 1024;
  a->maxDynamicSharedSizeBytes =
      pkemu::api::func_max_dynamic_shared((const void *)f);
  a->binaryVersion = a->ptxVersion = 90;
  return cudaSuccess;
}
template <class F>
inline cudaError_t
cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *n, F, int block,
                                              std::size_t shmem = 0) {
  *n = pkemu::api::max_active_blocks(block, shmem);
  return cudaSuccess;
}
template <class F>
inline cudaError_t cudaOccupancyMaxPotentialBlockSize(int *grid, int *block, F,
                                                      std::size_t = 0,
                                                      int limit = 0) {
  *block = limit > 0 && limit < 1024 ? limit : 1024;
  *grid = 2 * pkemu::api::multiprocessor_count();
  return cudaSuccess;
}

inline cudaError_t cudaStreamCreate(cudaStream_t *s) {
  return PKEMU_CE(pkemu::api::stream_create((void **)s));
}
inline cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned) {
  return cudaStreamCreate(s);
}
inline cudaError_t cudaStreamCreateWithPriority(cudaStream_t *s, unsigned,
                                                int) {
  return cudaStreamCreate(s);
}
inline cudaError_t cudaStreamGetPriority(cudaStream_t, int *p) {
  *p = 0;
  return cudaSuccess;
}
inline cudaError_t cudaStreamDestroy(cudaStream_t s) {
  return PKEMU_CE(pkemu::api::stream_destroy(s));
}
inline cudaError_t cudaStreamSynchronize(cudaStream_t s) {
  return PKEMU_CE(pkemu::api::stream_synchronize(s));
}
// Host functions in stream order: run when the stream's earlier work is
// done (the host waits for it here, then calls the function).
typedef void (*cudaStreamCallback_t)(cudaStream_t, cudaError_t, void *);
typedef void (*cudaHostFn_t)(void *);
inline cudaError_t cudaStreamAddCallback(cudaStream_t s,
                                         cudaStreamCallback_t cb, void *ud,
                                         unsigned flags) {
  if (!cb || flags != 0)
    return PKEMU_CE(pkemu::api::set_error(pkemu::api::kInvalidValue));
  cudaError_t e = cudaStreamSynchronize(s);
  cb(s, e, ud);
  return cudaSuccess;
}
inline cudaError_t cudaLaunchHostFunc(cudaStream_t s, cudaHostFn_t fn,
                                      void *ud) {
  if (!fn)
    return PKEMU_CE(pkemu::api::set_error(pkemu::api::kInvalidValue));
  cudaError_t e = cudaStreamSynchronize(s);
  if (e != cudaSuccess)
    return e;
  fn(ud);
  return cudaSuccess;
}
inline cudaError_t cudaStreamQuery(cudaStream_t s) {
  return PKEMU_CE(pkemu::api::stream_query(s));
}
inline cudaError_t cudaStreamWaitEvent(cudaStream_t, cudaEvent_t,
                                       unsigned = 0) {
  return cudaSuccess;
}
// Managed memory is reachable from every stream and the host here: the
// attachment changes nothing (the stream must exist).
inline cudaError_t cudaStreamAttachMemAsync(cudaStream_t s, void *,
                                            std::size_t = 0,
                                            unsigned = cudaMemAttachSingle) {
  return PKEMU_CE(pkemu::api::stream_query(s));
}
inline cudaError_t cudaEventCreate(cudaEvent_t *e) {
  return PKEMU_CE(pkemu::api::event_create((void **)e));
}
inline cudaError_t cudaEventCreateWithFlags(cudaEvent_t *e, unsigned) {
  return cudaEventCreate(e);
}
inline cudaError_t cudaEventDestroy(cudaEvent_t e) {
  return PKEMU_CE(pkemu::api::event_destroy(e));
}
inline cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s = 0) {
  return PKEMU_CE(pkemu::api::event_record(e, s));
}
inline cudaError_t cudaEventSynchronize(cudaEvent_t e) {
  return PKEMU_CE(pkemu::api::event_synchronize(e));
}
inline cudaError_t cudaEventQuery(cudaEvent_t e) {
  return PKEMU_CE(pkemu::api::event_query(e));
}
inline cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a,
                                        cudaEvent_t b) {
  return PKEMU_CE(pkemu::api::event_elapsed(ms, a, b));
}

// cudaLaunchKernel: the kernel's parameter types unpack the argument array.
template <class... P>
inline cudaError_t cudaLaunchKernel(void (*f)(P...), dim3 g, dim3 b,
                                    void **args, std::size_t sh = 0,
                                    cudaStream_t st = 0) {
  return PKEMU_CE(pkemu::launch_argv(f, g, b, args, sh, (void *)st));
}
inline cudaError_t cudaLaunchKernel(const void *, dim3, dim3, void **,
                                    std::size_t = 0, cudaStream_t = 0,
                                    PKEMU_LOC_PARAMS) {
  // An untyped kernel pointer cannot be unpacked: pass the kernel itself, not
  // (void*)kernel.
  pkemu::detail::error("unsupported launch",
                       "cudaLaunchKernel called with an untyped (void*) kernel "
                       "pointer; pass the kernel function itself",
                       PKEMU_LOC);
  return PKEMU_CE(pkemu::api::set_error(pkemu::api::kInvalidDeviceFunction));
}
// cudaLaunchCooperativeKernel: like cudaLaunchKernel; the grid must be
// co-resident (cudaErrorCooperativeLaunchTooLarge otherwise) and its kernel may
// call this_grid().sync().
template <class... P>
inline cudaError_t cudaLaunchCooperativeKernel(void (*f)(P...), dim3 g, dim3 b,
                                               void **args, std::size_t sh = 0,
                                               cudaStream_t st = 0,
                                               PKEMU_LOC_PARAMS) {
  return PKEMU_CE(
      pkemu::launch_argv(f, g, b, args, sh, (void *)st,
                         pkemu::detail::LaunchSite{true, PKEMU_LOC}));
}
inline cudaError_t cudaLaunchCooperativeKernel(const void *, dim3, dim3,
                                               void **, std::size_t = 0,
                                               cudaStream_t = 0,
                                               PKEMU_LOC_PARAMS) {
  pkemu::detail::error(
      "unsupported launch",
      "cudaLaunchCooperativeKernel called with an untyped "
      "(void*) kernel pointer; pass the kernel function itself",
      PKEMU_LOC);
  return PKEMU_CE(pkemu::api::set_error(pkemu::api::kInvalidDeviceFunction));
}

// Texture objects (the engine: texture.h; the API: texture_api.inc).
typedef unsigned long long cudaTextureObject_t;
#define PKEMU_TX(n) cuda##n
#define PKEMU_TX_MAKE(n) make_cuda##n
#define PKEMU_TX_RET(x) PKEMU_CE(x)
#define PKEMU_TX_OBJ cudaTextureObject_t
#include "texture_api.inc"
#undef PKEMU_TX_OBJ
#undef PKEMU_TX_RET
#undef PKEMU_TX_MAKE
#undef PKEMU_TX
#undef PKEMU_CE
