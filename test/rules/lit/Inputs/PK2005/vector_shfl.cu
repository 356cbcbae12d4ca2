#include <cuda_runtime.h>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
struct Pair { float a; short b; };
__global__ void exchange(uint4 *p, Pair *q, double *d) {
  cg::thread_block_tile<32> t = cg::tiled_partition<32>(cg::this_thread_block());
  uint4 v = t.shfl_xor(p[t.thread_rank()], 1);
  v = t.shfl_down(v, 2);
  p[t.thread_rank()] = t.shfl(v, 0);
  q[t.thread_rank()] = t.shfl_up(q[t.thread_rank()], 1);
  float2 f = t.shfl_xor(make_float2(d[0], d[1]), 4);
  d[t.thread_rank()] = t.shfl_xor(d[t.thread_rank()], 1) + f.x;
}
