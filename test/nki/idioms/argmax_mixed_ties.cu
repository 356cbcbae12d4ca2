// argmax_mixed_ties: an arg-max whose lanes keep their LAST maximum (`>=`)
// while the shuffle combine prefers the SMALLER index on ties: the index
// stored mixes last and first occurrences depending on the lanes, so it
// must be refused with that reason rather than lowered either way.
// EXPECT: refuse PK5007 "keep their last occurrence"
#include <cuda_runtime.h>
#include <float.h>

__global__ void argmax_mixed_ties(int *idx, const float *x, int rows,
                                  int cols) {
  int lane = threadIdx.x & 31;
  int row = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
  if (row >= rows)
    return;
  float best = -FLT_MAX;
  int bi = 0;
  for (int c = lane; c < cols; c += 32) {
    float v = x[row * cols + c];
    if (v >= best) {
      best = v;
      bi = c;
    }
  }
  for (int o = 16; o > 0; o >>= 1) {
    float ov = __shfl_down_sync(0xffffffff, best, o);
    int oi = __shfl_down_sync(0xffffffff, bi, o);
    if (ov > best || (ov == best && oi < bi)) {
      best = ov;
      bi = oi;
    }
  }
  if (lane == 0)
    idx[row] = bi; // EXPECT-AT
}
