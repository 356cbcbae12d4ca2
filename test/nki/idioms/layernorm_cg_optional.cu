// layernorm_cg_optional: y = (x - mean) * rstd * g + b per row, one warp
// (a cooperative-groups tile of 32) per row, mean and rstd stored only when
// the caller passes somewhere to store them; streaming loads and stores
// with cache hints; an assert on the sizes.
// Idiom: `if (mean != nullptr)`, __ldcs/__stcs, cg::reduce, assert().
// EXPECT: lift
#include <assert.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_runtime.h>
namespace cg = cooperative_groups;

__global__ void layernorm_cg_optional(float *y, float *mean, float *rstd,
                                      const float *x, const float *g,
                                      const float *b, int rows, int cols) {
  assert(cols > 0);
  cg::thread_block blk = cg::this_thread_block();
  cg::thread_block_tile<32> w = cg::tiled_partition<32>(blk);
  int r = blockIdx.x * w.meta_group_size() + w.meta_group_rank();
  if (r >= rows)
    return;
  const float *row = x + (size_t)r * cols;
  float s = 0.0f;
  for (int c = w.thread_rank(); c < cols; c += w.size())
    s += __ldcs(row + c);
  float mu = cg::reduce(w, s, cg::plus<float>()) / cols;
  float q = 0.0f;
  for (int c = w.thread_rank(); c < cols; c += w.size()) {
    float d = row[c] - mu;
    q += d * d;
  }
  float inv = rsqrtf(cg::reduce(w, q, cg::plus<float>()) / cols + 1e-5f);
  if (w.thread_rank() == 0) {
    if (mean != nullptr)
      __stcs(mean + r, mu);
    if (rstd)
      rstd[r] = inv;
  }
  for (int c = w.thread_rank(); c < cols; c += w.size())
    __stcs(y + (size_t)r * cols + c, (row[c] - mu) * inv * g[c] + b[c]);
}
