//===- hip_api.h - HIP runtime API ------------------------------*- C++ -*-===//
// Rules: none (emulator runtime)
//
// pkemu: the HIP runtime API (hip/hip_runtime.h) on top of the emulator.
//
//===----------------------------------------------------------------------===//
#pragma once
#include <cstddef>
#include <cstring>

#include "../../include/pkemu/host_api.h"
#include "../../include/pkemu/runtime.h"
#include "props.h"

#include "mfma.h"

#ifndef HIP_VERSION_MAJOR
#define HIP_VERSION_MAJOR 6
#define HIP_VERSION_MINOR 3
#define HIP_VERSION_PATCH 0
#define HIP_VERSION                                                            \
  (HIP_VERSION_MAJOR * 10000000 + HIP_VERSION_MINOR * 100000 +                 \
   HIP_VERSION_PATCH)
#endif
#ifndef __HIP_PLATFORM_AMD__
#define __HIP_PLATFORM_AMD__ 1
#endif
#ifndef __HIP_PLATFORM_HCC__
#define __HIP_PLATFORM_HCC__ 1
#endif

enum hipError_t {
  hipSuccess = 0,
  hipErrorInvalidValue = 1,
  hipErrorOutOfMemory = 2,
  hipErrorMemoryAllocation = 2,
  hipErrorNotInitialized = 3,
  hipErrorInitializationError = 3,
  hipErrorInvalidConfiguration = 9,
  hipErrorInvalidSymbol = 13,
  hipErrorInvalidDevicePointer = 17,
  hipErrorInvalidMemcpyDirection = 21,
  hipErrorInvalidDeviceFunction = 98,
  hipErrorNoDevice = 100,
  hipErrorInvalidDevice = 101,
  hipErrorInvalidHandle = 400,
  hipErrorInvalidResourceHandle = 400,
  hipErrorNotReady = 600,
  hipErrorLaunchOutOfResources = 701,
  hipErrorAssert = 710,
  hipErrorLaunchFailure = 719,
  hipErrorCooperativeLaunchTooLarge = 720,
  hipErrorNotSupported = 801,
  hipErrorUnknown = 999
};
enum hipMemcpyKind {
  hipMemcpyHostToHost = 0,
  hipMemcpyHostToDevice = 1,
  hipMemcpyDeviceToHost = 2,
  hipMemcpyDeviceToDevice = 3,
  hipMemcpyDefault = 4
};
struct ihipStream_t;
struct ihipEvent_t;
typedef ihipStream_t *hipStream_t;
typedef ihipEvent_t *hipEvent_t;
#define hipStreamPerThread ((hipStream_t)0x2)
#define hipStreamDefault 0x00
#define hipStreamNonBlocking 0x01
#define hipEventDefault 0x0
#define hipEventBlockingSync 0x1
#define hipEventDisableTiming 0x2
#define hipHostMallocDefault 0x0
#define hipHostMallocPortable 0x1
#define hipHostMallocMapped 0x2
#define hipHostMallocWriteCombined 0x4
#define hipHostMallocCoherent 0x40000000
#define hipHostMallocNonCoherent 0x80000000
#define hipHostRegisterDefault 0x0
#define hipHostRegisterPortable 0x1
#define hipHostRegisterMapped 0x2
#define hipHostRegisterIoMemory 0x4
#define hipHostRegisterReadOnly 0x08
#define hipMemAttachGlobal 0x01
#define hipMemAttachHost 0x02
#define hipMemAttachSingle 0x04
#define hipDeviceScheduleAuto 0x0
#define hipDeviceScheduleSpin 0x1
#define hipDeviceScheduleYield 0x2
#define hipDeviceScheduleBlockingSync 0x4
#define hipDeviceMapHost 0x8
#define hipDeviceLmemResizeToMax 0x10
#define hipCpuDeviceId (-1)

enum hipFuncAttribute {
  hipFuncAttributeMaxDynamicSharedMemorySize = 8,
  hipFuncAttributePreferredSharedMemoryCarveout = 9,
};
enum hipFuncCache_t {
  hipFuncCachePreferNone = 0,
  hipFuncCachePreferShared,
  hipFuncCachePreferL1,
  hipFuncCachePreferEqual
};
enum hipSharedMemConfig {
  hipSharedMemBankSizeDefault = 0,
  hipSharedMemBankSizeFourByte,
  hipSharedMemBankSizeEightByte
};
enum hipMemoryAdvise {
  hipMemAdviseSetReadMostly = 1,
  hipMemAdviseUnsetReadMostly,
  hipMemAdviseSetPreferredLocation,
  hipMemAdviseUnsetPreferredLocation,
  hipMemAdviseSetAccessedBy,
  hipMemAdviseUnsetAccessedBy
};
enum hipDeviceAttribute_t {
  hipDeviceAttributeMaxThreadsPerBlock = 1,
  hipDeviceAttributeMaxBlockDimX,
  hipDeviceAttributeMaxBlockDimY,
  hipDeviceAttributeMaxBlockDimZ,
  hipDeviceAttributeMaxGridDimX,
  hipDeviceAttributeMaxGridDimY,
  hipDeviceAttributeMaxGridDimZ,
  hipDeviceAttributeMaxSharedMemoryPerBlock,
  hipDeviceAttributeTotalConstantMemory,
  hipDeviceAttributeWarpSize,
  hipDeviceAttributeMaxRegistersPerBlock = 12,
  hipDeviceAttributeClockRate,
  hipDeviceAttributeMultiprocessorCount = 16,
  hipDeviceAttributeKernelExecTimeout = 17,
  hipDeviceAttributeIntegrated = 18,
  hipDeviceAttributeCanMapHostMemory = 19,
  hipDeviceAttributeComputeMode = 20,
  hipDeviceAttributeConcurrentKernels = 31,
  hipDeviceAttributeEccEnabled = 32,
  hipDeviceAttributeMemoryClockRate = 36,
  hipDeviceAttributeMemoryBusWidth = 37,
  hipDeviceAttributeAsyncEngineCount = 40,
  hipDeviceAttributeUnifiedAddressing = 41,
  hipDeviceAttributeStreamPrioritiesSupported = 78,
  hipDeviceAttributeMaxRegistersPerMultiprocessor = 82,
  hipDeviceAttributeManagedMemory = 83,
  hipDeviceAttributePageableMemoryAccess = 88,
  hipDeviceAttributeConcurrentManagedAccess = 89,
  hipDeviceAttributeMaxBlocksPerMultiProcessor = 106,
  hipDeviceAttributeL2CacheSize = 38,
  hipDeviceAttributeMaxThreadsPerMultiProcessor = 39,
  hipDeviceAttributeComputeCapabilityMajor = 75,
  hipDeviceAttributeComputeCapabilityMinor = 76,
  hipDeviceAttributeMaxSharedMemoryPerMultiprocessor = 81,
  hipDeviceAttributeCooperativeLaunch = 95,
  hipDeviceAttributeSharedMemPerBlockOptin = 97,
  hipDeviceAttributeMemoryPoolsSupported = 115,
  hipDeviceAttributeMemoryPoolSupportedHandleTypes = 119,
};
enum hipComputeMode {
  hipComputeModeDefault = 0,
  hipComputeModeExclusive = 1,
  hipComputeModeProhibited = 2,
  hipComputeModeExclusiveProcess = 3
};
enum hipMemoryType {
  hipMemoryTypeUnregistered = 0,
  hipMemoryTypeHost = 1,
  hipMemoryTypeDevice = 2,
  hipMemoryTypeManaged = 3
};
struct hipPointerAttribute_t {
  enum hipMemoryType type;
  int device;
  void *devicePointer;
  void *hostPointer;
};
struct hipDeviceArch_t {
  unsigned hasGlobalInt32Atomics : 1, hasGlobalFloatAtomicExch : 1,
      hasSharedInt32Atomics : 1, hasSharedFloatAtomicExch : 1,
      hasFloatAtomicAdd : 1, hasGlobalInt64Atomics : 1,
      hasSharedInt64Atomics : 1, hasDoubles : 1, hasWarpVote : 1,
      hasWarpBallot : 1, hasWarpShuffle : 1, hasFunnelShift : 1,
      hasThreadFenceSystem : 1, hasSyncThreadsExt : 1, hasSurfaceFuncs : 1,
      has3dGrid : 1, hasDynamicParallelism : 1;
};
struct hipDeviceProp_t {
  char name[256];
  std::size_t totalGlobalMem;
  std::size_t sharedMemPerBlock;
  int regsPerBlock;
  int warpSize;
  std::size_t memPitch;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  int clockRate;
  int memoryClockRate;
  int memoryBusWidth;
  std::size_t totalConstMem;
  int major;
  int minor;
  int multiProcessorCount;
  int l2CacheSize;
  int maxThreadsPerMultiProcessor;
  int computeMode;
  int clockInstructionRate;
  hipDeviceArch_t arch;
  int concurrentKernels;
  int pciDomainID;
  int pciBusID;
  int pciDeviceID;
  std::size_t maxSharedMemoryPerMultiProcessor;
  int isMultiGpuBoard;
  int canMapHostMemory;
  int gcnArch;
  char gcnArchName[256];
  int integrated;
  int cooperativeLaunch;
  int cooperativeMultiDeviceLaunch;
  std::size_t textureAlignment;
  int kernelExecTimeoutEnabled;
  int ECCEnabled;
  int managedMemory;
  int unifiedAddressing;
  int asyncEngineCount;
  std::size_t sharedMemPerMultiprocessor;
  int regsPerMultiprocessor;
  std::size_t sharedMemPerBlockOptin;
  int maxBlocksPerMultiProcessor;
  int persistingL2CacheMaxSize;
  int accessPolicyMaxWindowSize;
  int pageableMemoryAccess;
  int pageableMemoryAccessUsesHostPageTables;
};

#define PKEMU_HE(x) ((hipError_t)::pkemu::api::with_sticky(x))
inline hipError_t hipGetLastError() {
  return PKEMU_HE(pkemu::api::get_last_error());
}
inline hipError_t hipPeekAtLastError() {
  return PKEMU_HE(pkemu::api::peek_last_error());
}
inline const char *hipGetErrorString(hipError_t e) {
  return pkemu::api::error_string(e);
}
inline const char *hipGetErrorName(hipError_t e) {
  return pkemu::api::error_name(e, true);
}
inline hipError_t hipInit(unsigned) { return hipSuccess; }

inline hipError_t hipMalloc(void **p, std::size_t n) {
  return PKEMU_HE(pkemu::api::dev_malloc(p, n));
}
template <class T> inline hipError_t hipMalloc(T **p, std::size_t n) {
  return hipMalloc((void **)p, n);
}
inline hipError_t hipExtMallocWithFlags(void **p, std::size_t n, unsigned) {
  return hipMalloc(p, n);
}
inline hipError_t hipMallocManaged(void **p, std::size_t n,
                                   unsigned = hipMemAttachGlobal) {
  return PKEMU_HE(pkemu::api::dev_malloc(p, n));
}
template <class T>
inline hipError_t hipMallocManaged(T **p, std::size_t n,
                                   unsigned f = hipMemAttachGlobal) {
  return hipMallocManaged((void **)p, n, f);
}
inline hipError_t hipHostMalloc(void **p, std::size_t n, unsigned = 0) {
  return PKEMU_HE(pkemu::api::host_malloc(p, n));
}
template <class T>
inline hipError_t hipHostMalloc(T **p, std::size_t n, unsigned f = 0) {
  return hipHostMalloc((void **)p, n, f);
}
inline hipError_t hipMallocHost(void **p, std::size_t n) {
  return hipHostMalloc(p, n);
}
template <class T> inline hipError_t hipMallocHost(T **p, std::size_t n) {
  return hipHostMalloc((void **)p, n);
}
inline hipError_t hipHostAlloc(void **p, std::size_t n, unsigned f) {
  return hipHostMalloc(p, n, f);
}
inline hipError_t hipMallocPitch(void **p, std::size_t *pitch, std::size_t w,
                                 std::size_t h) {
  return PKEMU_HE(pkemu::api::malloc_pitch(p, pitch, w, h));
}
// ROCm 6's typed form (hip_runtime_api.h), as CUDA's runtime has one.
template <class T>
inline hipError_t hipMallocPitch(T **p, std::size_t *pitch, std::size_t w,
                                 std::size_t h) {
  return hipMallocPitch((void **)p, pitch, w, h);
}
inline hipError_t hipFree(void *p) { return PKEMU_HE(pkemu::api::dev_free(p)); }
// Stream-ordered allocation (see cudaMallocAsync in cuda_api.h).
inline hipError_t hipStreamSynchronize(hipStream_t s);
inline hipError_t hipMallocAsync(void **p, std::size_t n, hipStream_t) {
  return hipMalloc(p, n);
}
template <class T>
inline hipError_t hipMallocAsync(T **p, std::size_t n, hipStream_t s) {
  return hipMallocAsync((void **)p, n, s);
}
// Stream-ordered memory pools (HIP 5.2+): see pkemu::detail::MemPool.
typedef pkemu::detail::MemPool *hipMemPool_t;
enum hipMemPoolAttr {
  hipMemPoolReuseFollowEventDependencies = 0x1,
  hipMemPoolReuseAllowOpportunistic = 0x2,
  hipMemPoolReuseAllowInternalDependencies = 0x3,
  hipMemPoolAttrReleaseThreshold = 0x4,
  hipMemPoolAttrReservedMemCurrent = 0x5,
  hipMemPoolAttrReservedMemHigh = 0x6,
  hipMemPoolAttrUsedMemCurrent = 0x7,
  hipMemPoolAttrUsedMemHigh = 0x8
};
enum hipMemLocationType {
  hipMemLocationTypeInvalid = 0,
  hipMemLocationTypeDevice = 1
};
struct hipMemLocation {
  enum hipMemLocationType type;
  int id;
};
enum hipMemAllocationType {
  hipMemAllocationTypeInvalid = 0,
  hipMemAllocationTypePinned = 1
};
enum hipMemAllocationHandleType {
  hipMemHandleTypeNone = 0,
  hipMemHandleTypePosixFileDescriptor = 1
};
struct hipMemPoolProps {
  enum hipMemAllocationType allocType;
  enum hipMemAllocationHandleType handleTypes;
  struct hipMemLocation location;
  void *win32SecurityAttributes;
  std::size_t maxSize;
  unsigned short usage;
  unsigned char reserved[54];
};
inline hipError_t hipDeviceGetDefaultMemPool(hipMemPool_t *p, int) {
  if (!p)
    return PKEMU_HE(pkemu::api::set_error(pkemu::api::kInvalidValue));
  *p = pkemu::detail::default_mem_pool();
  return hipSuccess;
}
inline hipError_t hipDeviceGetMemPool(hipMemPool_t *p, int) {
  if (!p)
    return PKEMU_HE(pkemu::api::set_error(pkemu::api::kInvalidValue));
  *p = pkemu::detail::current_mem_pool();
  return hipSuccess;
}
inline hipError_t hipDeviceSetMemPool(int, hipMemPool_t p) {
  if (!p)
    return PKEMU_HE(pkemu::api::set_error(pkemu::api::kInvalidValue));
  pkemu::detail::current_mem_pool() = p;
  return hipSuccess;
}
inline hipError_t hipMemPoolCreate(hipMemPool_t *p,
                                   const hipMemPoolProps *props) {
  if (!p || !props || props->allocType != hipMemAllocationTypePinned)
    return PKEMU_HE(pkemu::api::set_error(pkemu::api::kInvalidValue));
  *p = new pkemu::detail::MemPool();
  return hipSuccess;
}
inline hipError_t hipMemPoolDestroy(hipMemPool_t p) {
  if (!p)
    return PKEMU_HE(pkemu::api::set_error(pkemu::api::kInvalidValue));
  if (p != pkemu::detail::default_mem_pool()) {
    if (pkemu::detail::current_mem_pool() == p)
      pkemu::detail::current_mem_pool() = pkemu::detail::default_mem_pool();
    delete p;
  }
  return hipSuccess;
}
inline hipError_t hipMemPoolSetAttribute(hipMemPool_t p, hipMemPoolAttr a,
                                         void *v) {
  return pkemu::detail::mem_pool_set(p, (int)a, v)
             ? hipSuccess
             : PKEMU_HE(pkemu::api::set_error(pkemu::api::kInvalidValue));
}
inline hipError_t hipMemPoolGetAttribute(hipMemPool_t p, hipMemPoolAttr a,
                                         void *v) {
  return pkemu::detail::mem_pool_get(p, (int)a, v)
             ? hipSuccess
             : PKEMU_HE(pkemu::api::set_error(pkemu::api::kInvalidValue));
}
inline hipError_t hipMemPoolTrimTo(hipMemPool_t p, std::size_t) {
  return p ? hipSuccess
           : PKEMU_HE(pkemu::api::set_error(pkemu::api::kInvalidValue));
}
inline hipError_t hipMallocFromPoolAsync(void **ptr, std::size_t n,
                                         hipMemPool_t p, hipStream_t s) {
  if (!p)
    return PKEMU_HE(pkemu::api::set_error(pkemu::api::kInvalidValue));
  return hipMallocAsync(ptr, n, s);
}
template <class T>
inline hipError_t hipMallocFromPoolAsync(T **ptr, std::size_t n, hipMemPool_t p,
                                         hipStream_t s) {
  return hipMallocFromPoolAsync((void **)ptr, n, p, s);
}
inline hipError_t hipFreeAsync(void *p, hipStream_t s) {
  hipError_t e = hipStreamSynchronize(s);
  return e != hipSuccess ? e : hipFree(p);
}
inline hipError_t hipHostFree(void *p) {
  return PKEMU_HE(pkemu::api::host_free(p));
}
inline hipError_t hipFreeHost(void *p) {
  return PKEMU_HE(pkemu::api::host_free(p));
}
inline hipError_t hipHostRegister(void *p, std::size_t n, unsigned) {
  return PKEMU_HE(pkemu::api::host_register(p, n));
}
inline hipError_t hipHostUnregister(void *p) {
  return PKEMU_HE(pkemu::api::host_unregister(p));
}
inline hipError_t hipHostGetDevicePointer(void **d, void *h, unsigned) {
  *d = h;
  return hipSuccess;
}
inline hipError_t hipPointerGetAttributes(hipPointerAttribute_t *a,
                                          const void *p) {
  a->type = hipMemoryTypeDevice;
  a->device = 0;
  a->devicePointer = const_cast<void *>(p);
  a->hostPointer = const_cast<void *>(p);
  return hipSuccess;
}
inline hipError_t hipMemGetInfo(std::size_t *f, std::size_t *t) {
  return PKEMU_HE(pkemu::api::mem_get_info(f, t));
}

inline hipError_t hipMemcpy(void *d, const void *s, std::size_t n,
                            hipMemcpyKind) {
  return PKEMU_HE(pkemu::api::memcpy(d, s, n));
}
inline hipError_t hipMemcpyAsync(void *d, const void *s, std::size_t n,
                                 hipMemcpyKind k, hipStream_t = 0) {
  return hipMemcpy(d, s, n, k);
}
inline hipError_t hipMemcpyHtoD(void *d, const void *s, std::size_t n) {
  return PKEMU_HE(pkemu::api::memcpy(d, s, n));
}
inline hipError_t hipMemcpyDtoH(void *d, const void *s, std::size_t n) {
  return PKEMU_HE(pkemu::api::memcpy(d, s, n));
}
inline hipError_t hipMemcpyDtoD(void *d, const void *s, std::size_t n) {
  return PKEMU_HE(pkemu::api::memcpy(d, s, n));
}
inline hipError_t hipMemcpyHtoDAsync(void *d, const void *s, std::size_t n,
                                     hipStream_t) {
  return hipMemcpyHtoD(d, s, n);
}
inline hipError_t hipMemcpyDtoHAsync(void *d, const void *s, std::size_t n,
                                     hipStream_t) {
  return hipMemcpyDtoH(d, s, n);
}
inline hipError_t hipMemcpyDtoDAsync(void *d, const void *s, std::size_t n,
                                     hipStream_t) {
  return hipMemcpyDtoD(d, s, n);
}
inline hipError_t hipMemcpy2D(void *d, std::size_t dp, const void *s,
                              std::size_t sp, std::size_t w, std::size_t h,
                              hipMemcpyKind) {
  return PKEMU_HE(pkemu::api::memcpy2d(d, dp, s, sp, w, h));
}
inline hipError_t hipMemcpy2DAsync(void *d, std::size_t dp, const void *s,
                                   std::size_t sp, std::size_t w, std::size_t h,
                                   hipMemcpyKind k, hipStream_t = 0) {
  return hipMemcpy2D(d, dp, s, sp, w, h, k);
}
inline hipError_t hipMemset(void *d, int v, std::size_t n) {
  return PKEMU_HE(pkemu::api::memset(d, v, n));
}
inline hipError_t hipMemsetAsync(void *d, int v, std::size_t n,
                                 hipStream_t = 0) {
  return hipMemset(d, v, n);
}
inline hipError_t hipMemsetD8(void *d, unsigned char v, std::size_t n) {
  return hipMemset(d, v, n);
}
inline hipError_t hipMemsetD32(void *d, int v, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i)
    std::memcpy(static_cast<char *>(d) + 4 * i, &v, 4);
  return hipSuccess;
}
inline hipError_t hipMemset2D(void *d, std::size_t p, int v, std::size_t w,
                              std::size_t h) {
  return PKEMU_HE(pkemu::api::memset2d(d, p, v, w, h));
}
inline hipError_t hipMemPrefetchAsync(const void *, std::size_t, int,
                                      hipStream_t = 0) {
  return hipSuccess;
}
inline hipError_t hipMemAdvise(const void *, std::size_t, hipMemoryAdvise,
                               int) {
  return hipSuccess;
}

#define HIP_SYMBOL(X) (X)
template <class S>
inline hipError_t hipMemcpyToSymbol(S &&sym, const void *src, std::size_t n,
                                    std::size_t off = 0,
                                    hipMemcpyKind = hipMemcpyHostToDevice) {
  return PKEMU_HE(pkemu::api::memcpy(
      (char *)pkemu::detail::symbol_addr(std::forward<S>(sym)) + off, src, n));
}
template <class S>
inline hipError_t hipMemcpyToSymbolAsync(S &&sym, const void *src,
                                         std::size_t n, std::size_t off,
                                         hipMemcpyKind k, hipStream_t = 0) {
  return hipMemcpyToSymbol(std::forward<S>(sym), src, n, off, k);
}
template <class S>
inline hipError_t hipMemcpyFromSymbol(void *dst, S &&sym, std::size_t n,
                                      std::size_t off = 0,
                                      hipMemcpyKind = hipMemcpyDeviceToHost) {
  return PKEMU_HE(pkemu::api::memcpy(
      dst, (char *)pkemu::detail::symbol_addr(std::forward<S>(sym)) + off, n));
}
template <class S>
inline hipError_t hipMemcpyFromSymbolAsync(void *dst, S &&sym, std::size_t n,
                                           std::size_t off, hipMemcpyKind k,
                                           hipStream_t = 0) {
  return hipMemcpyFromSymbol(dst, std::forward<S>(sym), n, off, k);
}
template <class S> inline hipError_t hipGetSymbolAddress(void **p, S &&sym) {
  *p = pkemu::detail::symbol_addr(std::forward<S>(sym));
  return hipSuccess;
}
template <class S> inline hipError_t hipGetSymbolSize(std::size_t *n, S &&sym) {
  *n = sizeof(sym);
  return hipSuccess;
}

// The profiler's bracket of a region: no profiler runs under the emulator.
inline hipError_t hipProfilerStart() { return hipSuccess; }
inline hipError_t hipProfilerStop() { return hipSuccess; }
inline hipError_t hipDeviceSynchronize() {
  return PKEMU_HE(pkemu::api::device_synchronize());
}
inline hipError_t hipDeviceReset() {
  return PKEMU_HE(pkemu::api::device_reset());
}
inline hipError_t hipGetDeviceCount(int *n) {
  return PKEMU_HE(pkemu::api::get_device_count(n));
}
inline hipError_t hipSetDevice(int d) {
  return PKEMU_HE(pkemu::api::set_device(d));
}
inline hipError_t hipGetDevice(int *d) {
  return PKEMU_HE(pkemu::api::get_device(d));
}
inline hipError_t hipSetDeviceFlags(unsigned) { return hipSuccess; }
inline hipError_t hipGetDeviceProperties(hipDeviceProp_t *p, int d) {
  if (d != 0)
    return PKEMU_HE(pkemu::api::set_error(pkemu::api::kInvalidDevice));
  pkemu::detail::fill_props(p);
  p->major = 9;
  p->minor = 4;
  p->clockInstructionRate = 1000000;
  p->maxSharedMemoryPerMultiProcessor = pkemu::api::kSharedPerSM;
  p->gcnArch = 942;
  std::strcpy(p->gcnArchName, pkemu::api::warp_size() == 64
                                  ? "gfx942:sramecc+:xnack-"
                                  : "pkemu-wave32");
  p->arch.hasWarpVote = p->arch.hasWarpBallot = p->arch.hasWarpShuffle = 1;
  p->arch.hasDoubles = p->arch.hasFloatAtomicAdd = 1;
  return hipSuccess;
}
inline hipError_t hipDeviceGetAttribute(int *v, hipDeviceAttribute_t a, int d) {
  if (d != 0)
    return PKEMU_HE(pkemu::api::set_error(pkemu::api::kInvalidDevice));
  *v = a == hipDeviceAttributeComputeCapabilityMajor ? 9
       : a == hipDeviceAttributeComputeCapabilityMinor
           ? 4
           : pkemu::detail::device_attr(a);
  return hipSuccess;
}
inline hipError_t hipDeviceSetCacheConfig(hipFuncCache_t) { return hipSuccess; }
inline hipError_t hipDeviceSetSharedMemConfig(hipSharedMemConfig) {
  return hipSuccess;
}
inline hipError_t hipDriverGetVersion(int *v) {
  *v = HIP_VERSION;
  return hipSuccess;
}
inline hipError_t hipRuntimeGetVersion(int *v) {
  *v = HIP_VERSION;
  return hipSuccess;
}

template <class F>
inline hipError_t hipFuncSetAttribute(F *f, hipFuncAttribute attr, int v) {
  if (attr == hipFuncAttributeMaxDynamicSharedMemorySize)
    return PKEMU_HE(
        pkemu::api::func_set_max_dynamic_shared((const void *)f, v));
  return hipSuccess;
}
inline hipError_t hipFuncSetAttribute(const void *f, hipFuncAttribute attr,
                                      int v) {
  if (attr == hipFuncAttributeMaxDynamicSharedMemorySize)
    return PKEMU_HE(pkemu::api::func_set_max_dynamic_shared(f, v));
  return hipSuccess;
}
template <class F>
inline hipError_t hipFuncSetCacheConfig(F *, hipFuncCache_t) {
  return hipSuccess;
}
typedef struct hipFuncAttributes {
  int binaryVersion;
  int cacheModeCA;
  std::size_t constSizeBytes;
  std::size_t localSizeBytes;
  int maxDynamicSharedSizeBytes;
  int maxThreadsPerBlock;
  int numRegs;
  int preferredShmemCarveout;
  int ptxVersion;
  std::size_t sharedSizeBytes;
} hipFuncAttributes;
inline hipError_t hipFuncGetAttributes(hipFuncAttributes *a, const void *f) {
  std::memset(a, 0, sizeof(*a));
  a->maxThreadsPerBlock = 1024;
  a->maxDynamicSharedSizeBytes = pkemu::api::func_max_dynamic_shared(f);
  a->binaryVersion = a->ptxVersion = 90;
  return hipSuccess;
}
template <class F>
inline hipError_t hipFuncGetAttributes(hipFuncAttributes *a, F *f) {
  return hipFuncGetAttributes(a, (const void *)f);
}
template <class F>
inline hipError_t
hipOccupancyMaxActiveBlocksPerMultiprocessor(int *n, F, int block,
                                             std::size_t shmem = 0) {
  *n = pkemu::api::max_active_blocks(block, shmem);
  return hipSuccess;
}
template <class F>
inline hipError_t hipOccupancyMaxPotentialBlockSize(int *grid, int *block, F,
                                                    std::size_t = 0,
                                                    int limit = 0) {
  *block = limit > 0 && limit < 1024 ? limit : 1024;
  *grid = 2 * pkemu::api::multiprocessor_count();
  return hipSuccess;
}

inline hipError_t hipStreamCreate(hipStream_t *s) {
  return PKEMU_HE(pkemu::api::stream_create((void **)s));
}
inline hipError_t hipStreamCreateWithFlags(hipStream_t *s, unsigned) {
  return hipStreamCreate(s);
}
inline hipError_t hipStreamCreateWithPriority(hipStream_t *s, unsigned, int) {
  return hipStreamCreate(s);
}
inline hipError_t hipStreamGetPriority(hipStream_t, int *p) {
  *p = 0;
  return hipSuccess;
}
// One priority level: the emulator runs every stream's work in order.
inline hipError_t hipDeviceGetStreamPriorityRange(int *least, int *greatest) {
  if (least)
    *least = 0;
  if (greatest)
    *greatest = 0;
  return hipSuccess;
}
enum hipLimit_t {
  hipLimitStackSize = 0x0,
  hipLimitPrintfFifoSize = 0x01,
  hipLimitMallocHeapSize = 0x02,
  hipLimitRange
};
inline hipError_t hipDeviceSetLimit(hipLimit_t l, std::size_t v) {
  if ((int)l < 0 || (int)l > 2)
    return PKEMU_HE(pkemu::api::set_error(pkemu::api::kInvalidValue));
  pkemu::detail::device_limits()[l] = v;
  return hipSuccess;
}
inline hipError_t hipDeviceGetLimit(std::size_t *v, hipLimit_t l) {
  if (!v || (int)l < 0 || (int)l > 2)
    return PKEMU_HE(pkemu::api::set_error(pkemu::api::kInvalidValue));
  *v = pkemu::detail::device_limits()[l];
  return hipSuccess;
}
inline hipError_t hipStreamDestroy(hipStream_t s) {
  return PKEMU_HE(pkemu::api::stream_destroy(s));
}
// L2 persistence hints: the types ports name (HIP 5.2+); nothing to steer.
enum hipAccessProperty {
  hipAccessPropertyNormal = 0,
  hipAccessPropertyStreaming = 1,
  hipAccessPropertyPersisting = 2
};
struct hipAccessPolicyWindow {
  void *base_ptr;
  hipAccessProperty hitProp;
  float hitRatio;
  hipAccessProperty missProp;
  std::size_t num_bytes;
};
// Launch attributes (ROCm 6), the names ports of cudaLaunchAttribute* use.
enum hipLaunchAttributeID {
  hipLaunchAttributeAccessPolicyWindow = 1,
  hipLaunchAttributeCooperative = 2,
  hipLaunchAttributePriority = 8
};
union hipLaunchAttributeValue {
  char pad[64];
  hipAccessPolicyWindow accessPolicyWindow;
  int cooperative;
  int priority;
};
inline hipError_t hipStreamSynchronize(hipStream_t s) {
  return PKEMU_HE(pkemu::api::stream_synchronize(s));
}
// Host functions in stream order: run when the stream's earlier work is
// done (the host waits for it here, then calls the function).
typedef void (*hipStreamCallback_t)(hipStream_t, hipError_t, void *);
typedef void (*hipHostFn_t)(void *);
inline hipError_t hipStreamAddCallback(hipStream_t s, hipStreamCallback_t cb,
                                       void *ud, unsigned flags) {
  if (!cb || flags != 0)
    return PKEMU_HE(pkemu::api::set_error(pkemu::api::kInvalidValue));
  hipError_t e = hipStreamSynchronize(s);
  cb(s, e, ud);
  return hipSuccess;
}
inline hipError_t hipLaunchHostFunc(hipStream_t s, hipHostFn_t fn, void *ud) {
  if (!fn)
    return PKEMU_HE(pkemu::api::set_error(pkemu::api::kInvalidValue));
  hipError_t e = hipStreamSynchronize(s);
  if (e != hipSuccess)
    return e;
  fn(ud);
  return hipSuccess;
}

// Managed memory is reachable from every stream and the host here: the
// attachment changes nothing (the stream must exist).
inline hipError_t hipStreamAttachMemAsync(hipStream_t s, void *,
                                          std::size_t = 0,
                                          unsigned = hipMemAttachSingle) {
  return PKEMU_HE(pkemu::api::stream_query(s));
}
inline hipError_t hipStreamQuery(hipStream_t s) {
  return PKEMU_HE(pkemu::api::stream_query(s));
}
inline hipError_t hipStreamWaitEvent(hipStream_t, hipEvent_t, unsigned = 0) {
  return hipSuccess;
}
inline hipError_t hipEventCreate(hipEvent_t *e) {
  return PKEMU_HE(pkemu::api::event_create((void **)e));
}
inline hipError_t hipEventCreateWithFlags(hipEvent_t *e, unsigned) {
  return hipEventCreate(e);
}
inline hipError_t hipEventDestroy(hipEvent_t e) {
  return PKEMU_HE(pkemu::api::event_destroy(e));
}
inline hipError_t hipEventRecord(hipEvent_t e, hipStream_t s = 0) {
  return PKEMU_HE(pkemu::api::event_record(e, s));
}
inline hipError_t hipEventSynchronize(hipEvent_t e) {
  return PKEMU_HE(pkemu::api::event_synchronize(e));
}
inline hipError_t hipEventQuery(hipEvent_t e) {
  return PKEMU_HE(pkemu::api::event_query(e));
}
inline hipError_t hipEventElapsedTime(float *ms, hipEvent_t a, hipEvent_t b) {
  return PKEMU_HE(pkemu::api::event_elapsed(ms, a, b));
}

// Launching.
#define HIP_KERNEL_NAME(...) __VA_ARGS__
#define hipLaunchKernelGGL(kernelName, ...)                                    \
  ::pkemu::launch(kernelName, __VA_ARGS__)
template <class... P>
inline hipError_t hipLaunchKernel(void (*f)(P...), dim3 g, dim3 b, void **args,
                                  std::size_t sh = 0, hipStream_t st = 0) {
  return PKEMU_HE(pkemu::launch_argv(f, g, b, args, sh, (void *)st));
}
inline hipError_t hipLaunchKernel(const void *, dim3, dim3, void **,
                                  std::size_t = 0, hipStream_t = 0,
                                  PKEMU_LOC_PARAMS) {
  pkemu::detail::error("unsupported launch",
                       "hipLaunchKernel called with an untyped (void*) kernel "
                       "pointer; pass the kernel function itself",
                       PKEMU_LOC);
  return PKEMU_HE(pkemu::api::set_error(pkemu::api::kInvalidDeviceFunction));
}
template <class... P>
inline hipError_t hipLaunchCooperativeKernel(void (*f)(P...), dim3 g, dim3 b,
                                             void **args, std::size_t sh = 0,
                                             hipStream_t st = 0,
                                             PKEMU_LOC_PARAMS) {
  return PKEMU_HE(
      pkemu::launch_argv(f, g, b, args, sh, (void *)st,
                         pkemu::detail::LaunchSite{true, PKEMU_LOC}));
}
inline hipError_t hipLaunchCooperativeKernel(const void *, dim3, dim3, void **,
                                             std::size_t = 0, hipStream_t = 0,
                                             PKEMU_LOC_PARAMS) {
  pkemu::detail::error(
      "unsupported launch",
      "hipLaunchCooperativeKernel called with an untyped "
      "(void*) kernel pointer; pass the kernel function itself",
      PKEMU_LOC);
  return PKEMU_HE(pkemu::api::set_error(pkemu::api::kInvalidDeviceFunction));
}

// Texture objects (the engine: texture.h; the API: texture_api.inc). HIP's
// texture object is a pointer type; the fetches take it too.
struct __hip_texture;
typedef struct __hip_texture *hipTextureObject_t;
#define PKEMU_TX(n) hip##n
#define PKEMU_TX_MAKE(n) make_hip##n
#define PKEMU_TX_RET(x) PKEMU_HE(x)
#define PKEMU_TX_OBJ hipTextureObject_t
#include "texture_api.inc"
#undef PKEMU_TX_OBJ
#undef PKEMU_TX_RET
#undef PKEMU_TX_MAKE
#undef PKEMU_TX
template <class T> PKEMU_HD inline T tex1Dfetch(hipTextureObject_t h, int i) {
  return tex1Dfetch<T>((unsigned long long)(std::uintptr_t)h, i);
}
template <class T> PKEMU_HD inline T tex1D(hipTextureObject_t h, float x) {
  return tex1D<T>((unsigned long long)(std::uintptr_t)h, x);
}
template <class T>
PKEMU_HD inline T tex2D(hipTextureObject_t h, float x, float y) {
  return tex2D<T>((unsigned long long)(std::uintptr_t)h, x, y);
}
template <class T>
PKEMU_HD inline T tex3D(hipTextureObject_t h, float x, float y, float z) {
  return tex3D<T>((unsigned long long)(std::uintptr_t)h, x, y, z);
}
template <class T>
PKEMU_HD inline void tex1Dfetch(T *r, hipTextureObject_t h, int i) {
  *r = tex1Dfetch<T>(h, i);
}
template <class T>
PKEMU_HD inline void tex2D(T *r, hipTextureObject_t h, float x, float y) {
  *r = tex2D<T>(h, x, y);
}
#undef PKEMU_HE
