// argmax_no_tiebreak: an arg-max whose shuffle combine takes the other
// lane's pair only when its value is strictly greater (no tie-break on the
// index): with equal maxima in two lanes, which index survives depends on
// the lanes' order in the tree, not on the positions, so it must be
// refused with that reason rather than lowered as a first-index arg-max.
// EXPECT: refuse PK5007 "no tie-break on the index"
#include <cuda_runtime.h>
#include <float.h>

__global__ void argmax_no_tiebreak(int *idx, const float *x, int rows,
                                   int cols) {
  int lane = threadIdx.x & 31;
  int row = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
  if (row >= rows)
    return;
  float best = -FLT_MAX;
  int bi = 0;
  for (int c = lane; c < cols; c += 32) {
    float v = x[row * cols + c];
    if (v > best) {
      best = v;
      bi = c;
    }
  }
  for (int o = 16; o > 0; o >>= 1) {
    float ov = __shfl_down_sync(0xffffffff, best, o);
    int oi = __shfl_down_sync(0xffffffff, bi, o);
    if (ov > best) {
      best = ov;
      bi = oi;
    }
  }
  if (lane == 0)
    idx[row] = bi; // EXPECT-AT
}
