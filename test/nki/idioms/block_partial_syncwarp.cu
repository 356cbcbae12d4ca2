// block_partial_syncwarp: per-block partial sums of n floats, partial[b] =
// sum of the elements block b visits (two per thread per step, grid-stride).
// Idiom: the unrolled reduction with a blockSize template parameter, made
// safe for independent thread scheduling: the last warp reads its partner,
// __syncwarp(), then writes, __syncwarp(), at each step.
// EXPECT: lift
#include <cuda_runtime.h>

template <unsigned int blockSize>
__device__ void warpReduceSync(float *sdata, unsigned int tid) {
  float v = sdata[tid];
#pragma unroll
  for (unsigned int off = 32; off > 0; off >>= 1) {
    v += sdata[tid + off];
    __syncwarp();
    sdata[tid] = v;
    __syncwarp();
  }
}

template <unsigned int blockSize>
__global__ void block_partial_syncwarp(const float *in, float *partial,
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
    warpReduceSync<blockSize>(sdata, tid);
  if (tid == 0)
    partial[blockIdx.x] = sdata[0];
}

template __global__ void block_partial_syncwarp<256>(const float *, float *,
                                                     unsigned int);
