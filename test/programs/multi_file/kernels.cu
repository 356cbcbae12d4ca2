// Kernels of the program: not a translation unit of its own, main.cu
// includes it (as many benchmark suites do).
#include "warp.cuh"

// One partial sum per block: per-warp sums in shared slots, then the first
// warp adds the slots.
__global__ void blockSums(const float *in, float *partial, int n) {
  __shared__ float warpSums[32];
  const int tid = threadIdx.x;
  const int lane = tid % WARP_SIZE, warp = tid / WARP_SIZE;
  const int i = blockIdx.x * blockDim.x + tid;
  float v = warpReduceSum(i < n ? in[i] : 0.0f);
  if (lane == 0)
    warpSums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < blockDim.x / WARP_SIZE ? warpSums[lane] : 0.0f;
    v = warpReduceSum(v);
    if (lane == 0)
      partial[blockIdx.x] = v;
  }
}
