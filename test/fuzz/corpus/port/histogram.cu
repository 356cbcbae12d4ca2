// 256-bin byte histogram: per-block privatised counts in shared memory with
// shared-memory atomics, merged into the global histogram with one global
// atomic per non-empty bin.
#include <cuda_runtime.h>
#include <stdint.h>

#define NUM_BINS 256

__global__ void histogram256(const uint8_t *__restrict__ data,
                             unsigned int *__restrict__ hist, int n) {
  __shared__ unsigned int localHist[NUM_BINS];

  for (int b = threadIdx.x; b < NUM_BINS; b += blockDim.x)
    localHist[b] = 0;
  __syncthreads();

  const int stride = blockDim.x * gridDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    atomicAdd(&localHist[data[i]], 1u);
  __syncthreads();

  for (int b = threadIdx.x; b < NUM_BINS; b += blockDim.x) {
    const unsigned int c = localHist[b];
    if (c != 0)
      atomicAdd(&hist[b], c);
  }
}
