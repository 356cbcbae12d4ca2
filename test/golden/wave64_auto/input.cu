// --wave64=auto decides per kernel.  Kernels that share warp code get the
// same strategy; a kernel whose data layout depends on 32 keeps 32-lane
// logical warps, and so does a kernel launched with 32-thread blocks.
#include <cuda_runtime.h>
#include "warp_utils.cuh"

// Native: the per-block maximum does not depend on the warp width.
__device__ float warp_max(float v) {
  for (int o = 16; o > 0; o >>= 1)
    v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, o));
  return v;
}

__global__ void block_max(const float *in, float *out) {
  __shared__ float m[32];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  float v = warp_max(in[blockIdx.x * blockDim.x + threadIdx.x]);
  if (lane == 0)
    m[warp] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int w = 1; w < blockDim.x / 32; ++w)
      v = fmaxf(v, m[w]);
    out[blockIdx.x] = v;
  }
}

// Logical: one warp per row, so the rows a block covers depend on 32.
__global__ void row_sums(const float *in, float *out, int rows, int cols) {
  const int lane = threadIdx.x % WARP_SIZE;
  const int row = blockIdx.x * (blockDim.x / WARP_SIZE) + threadIdx.x / WARP_SIZE;
  if (row >= rows)
    return;
  float s = 0.0f;
  for (int c = lane; c < cols; c += WARP_SIZE)
    s += in[row * cols + c];
  s = warp_sum(s);
  if (lane == 0)
    out[row] = s;
}

// Logical as well: it shares warp_sum and WARP_SIZE with row_sums.
__global__ void block_sums(const float *in, float *out) {
  __shared__ float part[WARP_SIZE];
  const int lane = threadIdx.x % WARP_SIZE, warp = threadIdx.x / WARP_SIZE;
  float s = warp_sum(in[blockIdx.x * blockDim.x + threadIdx.x]);
  if (lane == 0)
    part[warp] = s;
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int w = 1; w < blockDim.x / WARP_SIZE; ++w)
      s += part[w];
    out[blockIdx.x] = s;
  }
}

// Logical: the last lane of a 32-thread block writes the tile's total.
__global__ void tile_totals(const int *in, int *totals) {
  const int lane = threadIdx.x & 31;
  int v = in[blockIdx.x * 32 + lane];
  for (int d = 1; d < 32; d <<= 1) {
    const int t = __shfl_up_sync(0xffffffff, v, d);
    if (lane >= d)
      v += t;
  }
  if (lane == 31)
    totals[blockIdx.x] = v;
}

void run_tile_totals(const int *in, int *totals, int tiles) {
  tile_totals<<<tiles, 32>>>(in, totals);
}

// The device property: 64 on CDNA.
int threads_per_warp(int device) {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, device);
  return prop.warpSize;
}
