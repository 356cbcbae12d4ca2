// Third-party idiom: 16-thread tiles, their meta_group_rank and shuffles.
#include <cooperative_groups.h>
#include <cstdio>
#include <vector>

namespace cg = cooperative_groups;

__global__ void tileMax(const int *in, int *out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = tile.size() / 2; o > 0; o /= 2) {
    int w = tile.shfl_down(v, o);
    v = w > v ? w : v;
  }
  if (tile.thread_rank() == 0)
    out[blockIdx.x * (blockDim.x / 16) + tile.meta_group_rank()] = v;
}

int main() {
  const int blocks = 2, threads = 128, n = blocks * threads, nt = n / 16;
  std::vector<int> h(n);
  for (int i = 0; i < n; ++i)
    h[i] = (i * 53) % 211;
  int *din, *dout;
  cudaMalloc(&din, n * sizeof(int));
  cudaMalloc(&dout, nt * sizeof(int));
  cudaMemcpy(din, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  tileMax<<<blocks, threads>>>(din, dout);
  std::vector<int> r(nt);
  cudaMemcpy(r.data(), dout, nt * sizeof(int), cudaMemcpyDeviceToHost);
  for (int t = 0; t < nt; ++t) {
    int ref = h[t * 16];
    for (int i = 1; i < 16; ++i)
      ref = h[t * 16 + i] > ref ? h[t * 16 + i] : ref;
    if (r[t] != ref) {
      std::printf("tile %d: got %d want %d\n", t, r[t], ref);
      return 1;
    }
  }
  std::printf("tile16_meta: ok\n");
  return 0;
}
