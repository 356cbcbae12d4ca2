#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

// The checking macro is edited where it is defined, not where it expands.
#define CUDA_CHECK(call)                                                      \
  do {                                                                        \
    cudaError_t err_ = (call);                                                \
    if (err_ != cudaSuccess) {                                                \
      std::fprintf(stderr, "%s:%d: %s (%s)\n", __FILE__, __LINE__,            \
                   cudaGetErrorString(err_), cudaGetErrorName(err_));         \
      std::exit(1);                                                           \
    }                                                                         \
  } while (0)

int pick_device() {
  int count = 0;
  CUDA_CHECK(cudaGetDeviceCount(&count));
  int best = 0, bestSMs = 0;
  for (int d = 0; d < count; ++d) {
    cudaDeviceProp prop;
    CUDA_CHECK(cudaGetDeviceProperties(&prop, d));
    int sms = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, d);
    if (sms > bestSMs) { best = d; bestSMs = sms; }
    std::printf("%s: warp %d, smem %zu\n", prop.name, prop.warpSize,
                prop.sharedMemPerBlock);
  }
  CUDA_CHECK(cudaSetDevice(best));
  int cur = -1;
  cudaGetDevice(&cur);
  cudaError_t e = cudaGetLastError();
  if (e == cudaErrorInvalidValue || e == cudaErrorMemoryAllocation)
    return -1;
  e = cudaPeekAtLastError();
  CUDA_CHECK(cudaDeviceSynchronize());
  cudaDeviceReset();
  return cur;
}
