#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cstdio>
namespace cg = cooperative_groups;
// Tiles of several warps (CUDA 11+, block_tile_memory): rank, meta-group
// rank and size, sync and cg::reduce over 128- and 64-thread tiles.
template <unsigned TILE>
__global__ void tileSums(const int *in, int *out) {
  __shared__ cg::block_tile_memory<256> scratch;
  cg::thread_block block = cg::this_thread_block(scratch);
  auto tile = cg::tiled_partition<TILE>(block);
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  int s = cg::reduce(tile, v, cg::plus<int>());
  tile.sync();
  if (tile.thread_rank() == 0)
    out[blockIdx.x * tile.meta_group_size() + tile.meta_group_rank()] = s;
}
int main() {
  const int B = 3, T = 256;
  int h[B * T];
  for (int i = 0; i < B * T; ++i) h[i] = (i * 7) % 13;
  int *d, *o;
  cudaMalloc(&d, sizeof(h));
  cudaMalloc(&o, B * 4 * sizeof(int));
  cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice);
  int bad = 0;
  tileSums<128><<<B, T>>>(d, o);
  int r[B * 4];
  cudaMemcpy(r, o, B * 2 * sizeof(int), cudaMemcpyDeviceToHost);
  for (int t = 0; t < B * 2; ++t) { int s = 0; for (int i = 0; i < 128; ++i) s += h[t * 128 + i]; bad += r[t] != s; }
  tileSums<64><<<B, T>>>(d, o);
  cudaMemcpy(r, o, B * 4 * sizeof(int), cudaMemcpyDeviceToHost);
  for (int t = 0; t < B * 4; ++t) { int s = 0; for (int i = 0; i < 64; ++i) s += h[t * 64 + i]; bad += r[t] != s; }
  printf("%s %d\n", bad ? "FAIL" : "PASS", bad);
  return bad;
}
