//===- host_api.h - pkemu host API ------------------------------*- C++ -*-===//
// Rules: none (emulator runtime)
//
// pkemu host API: language-neutral implementation behind the cuda* and hip*
// shims. Error codes use the CUDA runtime numbering (HIP uses the same numbers
// for these codes).
//
//===----------------------------------------------------------------------===//
#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace pkemu {
namespace api {

enum Err : int {
  kSuccess = 0,
  kInvalidValue = 1,
  kMemoryAllocation = 2,
  kInitializationError = 3,
  kInvalidConfiguration = 9,
  kInvalidSymbol = 13,
  kInvalidDevicePointer = 17,
  kInvalidMemcpyDirection = 21,
  kInvalidDeviceFunction = 98,
  kNoDevice = 100,
  kInvalidDevice = 101,
  kInvalidResourceHandle = 400,
  kNotReady = 600,
  kLaunchOutOfResources = 701,
  kAssert = 710,
  kLaunchFailure = 719,
  kCooperativeLaunchTooLarge = 720,
  kNotSupported = 801,
  kUnknown = 999,
};

int set_error(
    int e); // records e as the last error (if non-zero) and returns it
int get_last_error(); // returns and clears
int peek_last_error();
// A kernel's assert failed (cudaErrorAssert, hipErrorAssert): the error is
// sticky, every later API call returns it (PKEMU_CE / PKEMU_HE).
void set_sticky_error(int e);
int sticky_error();
inline int with_sticky(int r) {
  const int s = sticky_error();
  return s ? s : r;
}
const char *error_string(int e);
const char *error_name(int e, bool hip);

int dev_malloc(void **p, std::size_t n);
int dev_free(void *p);
int host_malloc(void **p, std::size_t n);
int host_free(void *p);
// cudaHostRegister / hipHostRegister: host memory the device may access.
int host_register(void *p, std::size_t n);
int host_unregister(void *p);
int memcpy(void *d, const void *s, std::size_t n);
int memset(void *d, int v, std::size_t n);
int memcpy2d(void *dst, std::size_t dpitch, const void *src, std::size_t spitch,
             std::size_t w, std::size_t h);
int memset2d(void *dst, std::size_t pitch, int v, std::size_t w, std::size_t h);
int malloc_pitch(void **p, std::size_t *pitch, std::size_t w, std::size_t h);
int mem_get_info(std::size_t *free_b, std::size_t *total_b);
int device_synchronize();
int device_reset();

int stream_create(void **s);
int stream_destroy(void *s);
int stream_synchronize(void *s);
int stream_query(void *s);
int event_create(void **e);
int event_destroy(void *e);
int event_record(void *e, void *s);
int event_synchronize(void *e);
int event_query(void *e);
int event_elapsed(float *ms, void *start, void *stop);

int get_device_count(int *n);
int set_device(int d);
int get_device(int *d);
int warp_size();
int multiprocessor_count();
// Blocks of `block_threads` threads with `shmem` bytes of dynamic shared
// memory that one multiprocessor holds at once (at most 32, 2048 threads).
int max_active_blocks(int block_threads, std::size_t shmem);

int func_set_max_dynamic_shared(const void *fn, int bytes);
int func_max_dynamic_shared(const void *fn);

constexpr std::size_t kSharedPerBlock = 48 * 1024;
constexpr std::size_t kSharedPerBlockOptin = 227 * 1024;
constexpr std::size_t kSharedPerSM = 228 * 1024;
constexpr std::size_t kTotalGlobalMem = std::size_t(16) << 30;

} // namespace api

namespace detail {
// Address of a __device__/__constant__ symbol: an lvalue names the symbol
// itself, a pointer rvalue (HIP_SYMBOL(x) expands to &x in some HIP versions)
// is the address.
template <class T> inline void *symbol_addr(T &&s) {
  if constexpr (std::is_lvalue_reference<T>::value)
    return const_cast<void *>(static_cast<const void *>(&s));
  else
    return const_cast<void *>(static_cast<const void *>(s));
}
} // namespace detail
} // namespace pkemu
