// row_max_sub: out[r][c] = x[r][c] - max_c x[r][c] (the shift before an
// exponent); one block per row.
// Idiom: __shfl_down_sync max within each warp, lane 0 to partial[warp],
// warp 0 folds the partials and lane 0 publishes the row max through a
// __shared__ scalar that every thread reads after the barrier.
// EXPECT: lift
#include <cuda_runtime.h>
#include <float.h>

__global__ void row_max_sub(float *out, const float *x, int rows, int cols) {
  __shared__ float partial[32];
  __shared__ float rowMax;
  int row = blockIdx.x;
  if (row >= rows)
    return;
  int lane = threadIdx.x % 32;
  int warp = threadIdx.x / 32;
  int nw = blockDim.x / 32;
  float v = -FLT_MAX;
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    v = fmaxf(v, x[row * cols + c]);
  for (int o = 16; o > 0; o >>= 1)
    v = fmaxf(v, __shfl_down_sync(0xffffffff, v, o));
  if (lane == 0)
    partial[warp] = v;
  __syncthreads();
  if (warp == 0) {
    float t = lane < nw ? partial[lane] : -FLT_MAX;
    for (int o = 16; o > 0; o >>= 1)
      t = fmaxf(t, __shfl_down_sync(0xffffffff, t, o));
    if (lane == 0)
      rowMax = t;
  }
  __syncthreads();
  float m = rowMax;
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    out[row * cols + c] = x[row * cols + c] - m;
}
