// cg_l1norm: out[r][c] = x[r][c] / sum_c |x[r][c]| (L1 row normalisation).
// Idiom: cooperative groups with cg::reduce(tile, v, cg::plus<float>()),
// which leaves the sum in every thread of the 32-thread tile.
// EXPECT: lift
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

__global__ void cg_l1norm(float *out, const float *x, int rows, int cols) {
  auto block = cg::this_thread_block();
  auto tile = cg::tiled_partition<32>(block);
  int row = blockIdx.x * (blockDim.x / 32) + tile.meta_group_rank();
  if (row >= rows)
    return;
  float s = 0.0f;
  for (int c = tile.thread_rank(); c < cols; c += 32)
    s += fabsf(x[row * cols + c]);
  s = cg::reduce(tile, s, cg::plus<float>());
  float inv = 1.0f / s;
  for (int c = tile.thread_rank(); c < cols; c += 32)
    out[row * cols + c] = x[row * cols + c] * inv;
}
