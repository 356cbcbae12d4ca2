// --wave64=auto decides per kernel.  Kernels that share warp code get the
// same strategy; a kernel whose data layout depends on 32 keeps 32-lane
// logical warps, and so does a kernel launched with 32-thread blocks.
#include <hip/hip_runtime.h>
#include "warp_utils.hpp"

// Native: the per-block maximum does not depend on the warp width.
__device__ float warp_max(float v) {
  for (int o = 32; o > 0; o >>= 1)
    v = fmaxf(v, __shfl_xor(v, o, 64));
  return v;
}

// port-kernel: note: kernel block_max: native 64-lane warps (its warp code does not depend on the data layout of 32-lane warps) [PK2000]
__global__ void block_max(const float *in, float *out) {
  __shared__ float m[32];
  const int lane = threadIdx.x % 64, warp = threadIdx.x / 64;
  float v = warp_max(in[blockIdx.x * blockDim.x + threadIdx.x]);
  if (lane == 0)
    m[warp] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int w = 1; w < blockDim.x / 64; ++w)
      v = fmaxf(v, m[w]);
    out[blockIdx.x] = v;
  }
}

// Logical: one warp per row, so the rows a block covers depend on 32.
// port-kernel: note: kernel row_sums: logical 32-lane warps inside 64-lane waves because 'row >= rows' depends on the 32-lane warp numbering (line 32) [PK2000]
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
// port-kernel: note: kernel block_sums: logical 32-lane warps inside 64-lane waves because it shares warp code with kernel row_sums, where 'row >= rows' depends on the 32-lane warp numbering (line 32) [PK2000]
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
// port-kernel: note: kernel tile_totals: logical 32-lane warps inside 64-lane waves because it is launched with blocks 32 threads wide in x (a row of the block is not whole 64-lane waves) (line 71) [PK2000]
__global__ void tile_totals(const int *in, int *totals) {
  const int lane = threadIdx.x & 31;
  int v = in[blockIdx.x * 32 + lane];
  for (int d = 1; d < 32; d <<= 1) {
    const int t = __shfl_up(v, d, 32);
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
  hipDeviceProp_t prop;
  hipGetDeviceProperties(&prop, device);
  // port-kernel: warning: the device property warpSize is 64 on CDNA GPUs; some kernels of this port keep 32-lane logical warps: host code that sizes their work by it must use 32 [PK2011]
  return prop.warpSize;
}
