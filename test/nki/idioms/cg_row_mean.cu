// cg_row_mean: out[row] = mean_c in[row][c].
// Idiom: cooperative groups: `cg::tiled_partition<32>(block)` gives one
// 32-thread tile per row, tile.meta_group_rank() picks the row,
// tile.shfl_down folds the partial sums, tile.thread_rank() == 0 stores.
// EXPECT: lift
#include <cooperative_groups.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

__global__ void cg_row_mean(float *out, const float *in, int rows, int cols) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  int row = blockIdx.x * tile.meta_group_size() + tile.meta_group_rank();
  if (row >= rows)
    return;
  float v = 0.0f;
  for (int c = tile.thread_rank(); c < cols; c += tile.size())
    v += in[row * cols + c];
  for (int o = tile.size() / 2; o > 0; o /= 2)
    v += tile.shfl_down(v, o);
  if (tile.thread_rank() == 0)
    out[row] = v / cols;
}
