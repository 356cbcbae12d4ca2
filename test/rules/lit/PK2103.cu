// PK2103 (check): lane and warp ids computed for 32-lane warps (& 31, % 32,
// >> 5, / 32, blockDim.x / 32, 32-thread tiles, %laneid) in code with
// warp-level operations: two such warps share one 64-lane wave.
// RUN: not %pk check -q --to hip %s 2>&1 | FileCheck %s --check-prefix=DIAG

#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#define WARP_SIZE 32

__device__ __forceinline__ unsigned laneId() {
  unsigned id;
// DIAG: PK2103.cu:[[@LINE+1]]:3: warning: inline PTX reads %laneid: a 32-lane lane id [PK2103]
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(id));
  return id;
}

// One row per warp: the row's maximum.
__global__ void rowMax(const float *in, float *out, int cols) {
// DIAG: PK2103.cu:[[@LINE+1]]:32: warning: lane id 'threadIdx.x & 31' assumes 32-lane warps: two 32-lane warps share a 64-lane wave, so votes and shuffles combine both [PK2103]
  const int lane = threadIdx.x & 31;
// DIAG: PK2103.cu:[[@LINE+1]]:32: warning: warp id 'threadIdx.x >> 5' counts 32-lane warps; a 64-lane wave holds two of them [PK2103]
  const int warp = threadIdx.x >> 5;
// DIAG: PK2103.cu:[[@LINE+1]]:40: warning: 'blockDim.x / WARP_SIZE' counts 32-lane warps; a 64-lane wave holds two of them [PK2103]
  const int warpsPerBlock = blockDim.x / WARP_SIZE;
  const int row = blockIdx.x * warpsPerBlock + warp;
  float m = -1e30f;
  for (int c = lane; c < cols; c += 32)
    m = fmaxf(m, in[row * cols + c]);
  for (int o = 16; o > 0; o >>= 1)
    m = fmaxf(m, __shfl_xor_sync(0xffffffff, m, o));
  if (laneId() == 0)
    out[row] = m;
}

// Block sums through 32-thread tiles.
__global__ void tileSum(const float *in, float *out) {
  cg::thread_block block = cg::this_thread_block();
// DIAG: PK2103.cu:[[@LINE+1]]:36: warning: tiled_partition<32>: two 32-thread tiles share one 64-lane wave; HIP before ROCm 6 has no tile votes [PK2103]
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  float v = in[blockIdx.x * blockDim.x + block.thread_rank()];
  for (int o = 16; o > 0; o >>= 1)
    v += tile.shfl_down(v, o);
// DIAG: PK2103.cu:[[@LINE+1]]:7: warning: tile.thread_rank() of a 32-thread tile: two tiles share a 64-lane wave [PK2103]
  if (tile.thread_rank() == 0)
    atomicAdd(&out[blockIdx.x], v);
}

// No warp-level code: the same arithmetic is only a tile index here.
// DIAG-NOT: [PK2103]
__global__ void transpose32(const float *in, float *out, int n) {
  __shared__ float t[32][33];
  const int x = threadIdx.x % 32, y = threadIdx.x / 32;
  t[y][x] = in[y * n + x];
  __syncthreads();
  out[x * n + y] = t[y][x];
}
