// Cooperative groups: block handles, static tiles, reductions and a
// cooperative launch.
#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

__device__ float tileSum(cg::thread_block_tile<32> tile, float v) {
  for (int off = tile.size() / 2; off > 0; off /= 2) v += tile.shfl_down(v, off);
  return v;
}

__global__ void reduceKernel(const float *in, float *out, int n) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  int i = block.group_index().x * block.size() + block.thread_rank();
  float v = i < n ? in[i] : 0.0f;
  float s1 = tileSum(tile, v);
  float s2 = cg::reduce(tile, v, cg::plus<float>());
  float mx = cg::reduce(tile, v, cg::greater<float>());
  float mn = cg::reduce(tile, v, cg::less<float>());
  block.sync();
  cg::sync(block);
  if (tile.thread_rank() == 0) atomicAdd(out, s1 + s2 + mx - mn);
  auto t16 = cg::tiled_partition<16>(block);
  if (t16.any(v > 0.0f) && tile.all(1)) {
    unsigned int votes = tile.ballot(v > 1.0f);
    (void)votes;
  }
  (void)tile.meta_group_rank();
  (void)tile.meta_group_size();
  cg::thread_group g4 = cg::tiled_partition(block, 4);
  g4.sync();
  cg::coalesced_group active = cg::coalesced_threads();
  (void)active.thread_rank();
  dim3 ti = block.thread_index();
  (void)ti;
}

__global__ void gridKernel(float *p) {
  cg::grid_group grid = cg::this_grid();
  p[grid.thread_rank()] = 1.0f;
  grid.sync();
}

int main() {
  float *in, *out;
  cudaMalloc(&in, 1024 * sizeof(float));
  cudaMalloc(&out, sizeof(float));
  reduceKernel<<<4, 256>>>(in, out, 1024);
  void *args[] = {&in};
  cudaLaunchCooperativeKernel((void *)gridKernel, dim3(4), dim3(256), args, 0, 0);
  cudaDeviceSynchronize();
  cudaFree(in);
  cudaFree(out);
  return 0;
}
