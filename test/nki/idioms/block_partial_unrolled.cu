// block_partial_unrolled: per-block partial sums of n floats, partial[b] =
// sum of the elements block b visits (two per thread per step, grid-stride).
// Idiom: the classic unrolled reduction: a blockSize template parameter,
// first add during the load, the tree unrolled on blockSize down to 64,
// then the last warp through a `volatile float *` warpReduce without
// barriers.  Since independent thread scheduling (Volta) the lanes of the
// last warp are not in lockstep: lane t reads sdata[t + 16] while lane
// t + 16 writes it (the emulator reports this data race), so a correct tool
// refuses it; block_partial_syncwarp is the safe spelling.  The kernel
// model, which executes the template's instantiation, names the race.
// EXPECT: refuse PK5004 "a data race"
#include <cuda_runtime.h>

template <unsigned int blockSize>
__device__ void warpReduce(volatile float *sdata, unsigned int tid) {
  if (blockSize >= 64) sdata[tid] += sdata[tid + 32];
  if (blockSize >= 32) sdata[tid] += sdata[tid + 16]; // EXPECT-AT
  if (blockSize >= 16) sdata[tid] += sdata[tid + 8];
  if (blockSize >= 8) sdata[tid] += sdata[tid + 4];
  if (blockSize >= 4) sdata[tid] += sdata[tid + 2];
  if (blockSize >= 2) sdata[tid] += sdata[tid + 1];
}

template <unsigned int blockSize>
__global__ void block_partial_unrolled(const float *in, float *partial,
                                       unsigned int n) {
  __shared__ float sdata[blockSize];
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * (blockSize * 2) + tid;
  unsigned int gridSize = blockSize * 2 * gridDim.x;
  float sum = 0.0f;
  while (i < n) {
    sum += in[i];
    if (i + blockSize < n)
      sum += in[i + blockSize];
    i += gridSize;
  }
  sdata[tid] = sum;
  __syncthreads();
  if (blockSize >= 512) {
    if (tid < 256) sdata[tid] += sdata[tid + 256];
    __syncthreads();
  }
  if (blockSize >= 256) {
    if (tid < 128) sdata[tid] += sdata[tid + 128];
    __syncthreads();
  }
  if (blockSize >= 128) {
    if (tid < 64) sdata[tid] += sdata[tid + 64];
    __syncthreads();
  }
  if (tid < 32)
    warpReduce<blockSize>(sdata, tid);
  if (tid == 0)
    partial[blockIdx.x] = sdata[0];
}

template __global__ void block_partial_unrolled<256>(const float *, float *,
                                                     unsigned int);
