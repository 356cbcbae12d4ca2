// In the style of the sample suites' helper_cuda.h: the error-checking
// macro is defined only when the runtime's driver types are visible.
#pragma once
#include <cstdio>
#include <cstdlib>

#ifdef __DRIVER_TYPES_H__
template <typename T>
void check(T result, char const *const func, const char *const file,
           int const line) {
  if (result) {
    std::fprintf(stderr, "CUDA error at %s:%d code=%d \"%s\"\n", file, line,
                 static_cast<unsigned int>(result), func);
    std::exit(EXIT_FAILURE);
  }
}
#define checkCudaErrors(val) check((val), #val, __FILE__, __LINE__)
#endif

// The device-selection helpers are defined only when the runtime header's
// own guard is set (the port writes HIP's guard for it), and ask for the
// device's compute mode and whether it is integrated.
#ifdef __CUDA_RUNTIME_H__
inline int findCudaDevice() {
  int dev = 0, mode = -1, integrated = -1;
  checkCudaErrors(cudaSetDevice(dev));
  checkCudaErrors(cudaDeviceGetAttribute(&mode, cudaDevAttrComputeMode, dev));
  checkCudaErrors(
      cudaDeviceGetAttribute(&integrated, cudaDevAttrIntegrated, dev));
  if (mode == cudaComputeModeProhibited) {
    std::fprintf(stderr, "device %d is prohibited\n", dev);
    std::exit(EXIT_FAILURE);
  }
  std::printf("device %d: compute mode %d, integrated %d\n", dev, mode,
              integrated);
  return dev;
}
#endif

#define getLastCudaError(msg) __getLastCudaError(msg, __FILE__, __LINE__)
inline void __getLastCudaError(const char *errorMessage, const char *file,
                               const int line) {
  cudaError_t err = cudaGetLastError();
  if (cudaSuccess != err) {
    std::fprintf(stderr, "%s(%i) : getLastCudaError() : %s : (%d) %s.\n",
                 file, line, errorMessage, static_cast<int>(err),
                 cudaGetErrorString(err));
    std::exit(EXIT_FAILURE);
  }
}
