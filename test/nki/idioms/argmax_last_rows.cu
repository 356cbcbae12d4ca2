// argmax_last_rows: idx[r] = the LAST c with x[r][c] == max_c x[r][c] (the
// last occurrence on ties) and val[r] = that max.
// Idiom: one warp per row; each lane takes a new index on `>=` (so it keeps
// its last maximum), and the shuffle combine prefers the larger index on
// ties: a last-index arg-max, consistent at every level.
// EXPECT: lift
#include <cuda_runtime.h>
#include <float.h>

__global__ void argmax_last_rows(int *idx, float *val, const float *x,
                                 int rows, int cols) {
  int lane = threadIdx.x & 31;
  int row = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
  if (row >= rows)
    return;
  float best = -FLT_MAX;
  int bestIdx = 0;
  for (int c = lane; c < cols; c += 32) {
    float v = x[row * cols + c];
    if (v >= best) {
      best = v;
      bestIdx = c;
    }
  }
  for (int o = 16; o > 0; o >>= 1) {
    float ov = __shfl_down_sync(0xffffffff, best, o);
    int oi = __shfl_down_sync(0xffffffff, bestIdx, o);
    if (ov > best || (ov == best && oi > bestIdx)) {
      best = ov;
      bestIdx = oi;
    }
  }
  if (lane == 0) {
    idx[row] = bestIdx;
    val[row] = best;
  }
}
