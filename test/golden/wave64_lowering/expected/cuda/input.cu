// Constructs both strategies lower: cooperative-groups tiles and cg::reduce,
// inline PTX lane registers, volatile warp-synchronous steps, legacy
// shuffles and votes, __syncwarp, and a partial mask (flagged).
#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

__device__ float tile_sum(const cg::thread_block_tile<32> &tile, float v) {
  for (int o = tile.size() / 2; o > 0; o /= 2)
    v += tile.shfl_down(v, o);
  return v;
}

__global__ void tiles(const float *in, float *sum, float *total) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  const float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  const float s = tile_sum(tile, v);
  const float r = cg::reduce(tile, v, cg::plus<float>());
  if (tile.thread_rank() == 0)
    atomicAdd(&sum[blockIdx.x], s);
  if (tile.thread_rank() == 0)
    atomicAdd(&total[blockIdx.x], r);
  tile.sync();
}

__device__ __forceinline__ unsigned lane_id() {
  unsigned id;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(id));
  return id;
}

__device__ __forceinline__ unsigned lanes_below() {
  unsigned m;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(m));
  return m;
}

__global__ void ranks(const int *in, int *rank) {
  const unsigned b = __ballot_sync(0xffffffff, in[threadIdx.x] > 0);
  rank[threadIdx.x] = __popc(b & lanes_below()) + (lane_id() == 0);
}

__device__ void warp_reduce(volatile float *s, int tid) {
  { auto __pk_v = s[tid + 32]; __syncwarp(); s[tid] += __pk_v; __syncwarp(); }
  { auto __pk_v = s[tid + 16]; __syncwarp(); s[tid] += __pk_v; __syncwarp(); }
  { auto __pk_v = s[tid + 8]; __syncwarp(); s[tid] += __pk_v; __syncwarp(); }
  { auto __pk_v = s[tid + 4]; __syncwarp(); s[tid] += __pk_v; __syncwarp(); }
  { auto __pk_v = s[tid + 2]; __syncwarp(); s[tid] += __pk_v; __syncwarp(); }
  { auto __pk_v = s[tid + 1]; __syncwarp(); s[tid] += __pk_v; __syncwarp(); }
}

__global__ void reduce_volatile(const float *in, float *out) {
  __shared__ float sdata[128];
  const int tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * 128 + tid];
  __syncthreads();
  if (tid < 64)
    sdata[tid] += sdata[tid + 64];
  __syncthreads();
  if (tid < 32)
    warp_reduce(sdata, tid);
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

__global__ void legacy(const int *in, int *out) {
  int v = in[threadIdx.x];
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_xor_sync(0xffffffffu, v, o);
  const unsigned b = __ballot_sync(0xffffffffu, v > 0);
  const int half = __shfl_sync(0x0000ffff, v, 3);   // a half-warp mask
  __syncwarp(0xffffffff);
  if ((threadIdx.x & 31) == 0)
    out[threadIdx.x / 32] = v + __popc(b) + half;
}
