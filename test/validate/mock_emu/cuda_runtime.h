// A minimal serial stand-in for the emulator's CUDA shim, used by the harness
// tests so they do not depend on the real emulator.  It runs every thread of
// every block one after another, so it only supports kernels without
// barriers, shared memory or warp collectives.
#pragma once
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>

struct dim3 {
  unsigned x, y, z;
  constexpr dim3(unsigned X = 1, unsigned Y = 1, unsigned Z = 1) : x(X), y(Y), z(Z) {}
};
struct uint3 { unsigned x, y, z; };
inline uint3 threadIdx, blockIdx;
inline dim3 blockDim, gridDim;

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __restrict__ __restrict

typedef int cudaError_t;
enum { cudaSuccess = 0, cudaErrorMemoryAllocation = 2 };
enum cudaMemcpyKind { cudaMemcpyHostToDevice, cudaMemcpyDeviceToHost };
inline cudaError_t cudaMalloc(void **P, size_t N) {
  *P = std::malloc(N);
  return *P ? cudaSuccess : cudaErrorMemoryAllocation;
}
inline cudaError_t cudaMemcpy(void *D, const void *S, size_t N, cudaMemcpyKind) {
  std::memcpy(D, S, N);
  return cudaSuccess;
}
inline cudaError_t cudaFree(void *P) { std::free(P); return cudaSuccess; }
inline cudaError_t cudaDeviceSynchronize() { return cudaSuccess; }
inline cudaError_t cudaGetLastError() { return cudaSuccess; }
inline const char *cudaGetErrorString(cudaError_t) { return "mock error"; }

inline void __trap() {
  std::fprintf(stderr,
               "pkemu: error: trap in block (%u,%u,%u) thread (%u,%u,%u)\n"
               "  note: reached __trap()\n",
               blockIdx.x, blockIdx.y, blockIdx.z, threadIdx.x, threadIdx.y, threadIdx.z);
  std::exit(86);
}

namespace pkemu {
template <typename K, typename... A>
void launch(K Kernel, dim3 G, dim3 B, size_t, int, A... Args) {
  gridDim = G;
  blockDim = B;
  for (unsigned bz = 0; bz < G.z; ++bz)
    for (unsigned by = 0; by < G.y; ++by)
      for (unsigned bx = 0; bx < G.x; ++bx)
        for (unsigned tz = 0; tz < B.z; ++tz)
          for (unsigned ty = 0; ty < B.y; ++ty)
            for (unsigned tx = 0; tx < B.x; ++tx) {
              blockIdx = {bx, by, bz};
              threadIdx = {tx, ty, tz};
              Kernel(Args...);
            }
}
} // namespace pkemu
