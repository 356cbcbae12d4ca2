#include <hip/hip_runtime.h>
#include <cstdio>
#include <cstdlib>

// The checking macro is edited where it is defined, not where it expands.
#define CUDA_CHECK(call)                                                      \
  do {                                                                        \
    hipError_t err_ = (call);                                                \
    if (err_ != hipSuccess) {                                                \
      std::fprintf(stderr, "%s:%d: %s (%s)\n", __FILE__, __LINE__,            \
                   hipGetErrorString(err_), hipGetErrorName(err_));         \
      std::exit(1);                                                           \
    }                                                                         \
  } while (0)

int pick_device() {
  int count = 0;
  CUDA_CHECK(hipGetDeviceCount(&count));
  int best = 0, bestSMs = 0;
  for (int d = 0; d < count; ++d) {
    hipDeviceProp_t prop;
    CUDA_CHECK(hipGetDeviceProperties(&prop, d));
    int sms = 0;
    hipDeviceGetAttribute(&sms, hipDeviceAttributeMultiprocessorCount, d);
    if (sms > bestSMs) { best = d; bestSMs = sms; }
    // port-kernel: warning: the device property warpSize is 64 on CDNA GPUs, while the kernels of this port keep 32-lane logical warps; host code that sizes work by it must use 32 [PK2011]
    std::printf("%s: warp %d, smem %zu\n", prop.name, prop.warpSize,
                prop.sharedMemPerBlock);
  }
  CUDA_CHECK(hipSetDevice(best));
  int cur = -1;
  hipGetDevice(&cur);
  hipError_t e = hipGetLastError();
  if (e == hipErrorInvalidValue || e == hipErrorOutOfMemory)
    return -1;
  e = hipPeekAtLastError();
  CUDA_CHECK(hipDeviceSynchronize());
  hipDeviceReset();
  return cur;
}
