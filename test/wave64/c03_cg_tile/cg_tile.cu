// Class 3 with cooperative groups: 32-thread tiles, tile votes and
// cg::reduce.  HIP before ROCm 6 has no tile votes and no cg::reduce; the
// port lowers the tiles to __pk_tile<32> (logical) or __pk_tile<64> (native).
#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

__global__ void tile_stats(const float *__restrict__ in, float *__restrict__ sum,
                           int *__restrict__ positive) {
  __shared__ float partSum[32];
  __shared__ int partPos[32];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  const float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  const float s = cg::reduce(tile, v, cg::plus<float>());
  const unsigned votes = tile.ballot(v > 0.0f);
  if (tile.thread_rank() == 0) {
    partSum[tile.meta_group_rank()] = s;
    partPos[tile.meta_group_rank()] = __popc(votes);
  }
  block.sync();
  if (threadIdx.x == 0) {
    float t = 0.0f;
    int p = 0;
    for (int w = 0; w < tile.meta_group_size(); ++w) {
      t += partSum[w];
      p += partPos[w];
    }
    sum[blockIdx.x] = t;
    positive[blockIdx.x] = p;
  }
}
