// softmax_warp_width: row softmax, one warp per row, in-place capable
// (reads x, writes y).
// Idiom: WARP_SIZE macro, `#pragma unroll` butterflies with the explicit
// width argument `__shfl_xor_sync(FULL_MASK, v, o, WARP_SIZE)`, the fast
// intrinsics __expf and __fdividef.
// EXPECT: lift
#include <cuda_runtime.h>
#include <float.h>

#define WARP_SIZE 32
#define FULL_MASK 0xffffffffu

__global__ void softmax_warp_width(float *y, const float *x, int rows,
                                   int cols) {
  const int lane = threadIdx.x % WARP_SIZE;
  const int row = blockIdx.x * (blockDim.x / WARP_SIZE) +
                  threadIdx.x / WARP_SIZE;
  if (row >= rows)
    return;
  const float *xr = x + (size_t)row * cols;
  float *yr = y + (size_t)row * cols;
  float m = -FLT_MAX;
  for (int c = lane; c < cols; c += WARP_SIZE)
    m = fmaxf(m, xr[c]);
#pragma unroll
  for (int o = WARP_SIZE / 2; o > 0; o >>= 1)
    m = fmaxf(m, __shfl_xor_sync(FULL_MASK, m, o, WARP_SIZE));
  float s = 0.0f;
  for (int c = lane; c < cols; c += WARP_SIZE)
    s += __expf(xr[c] - m);
#pragma unroll
  for (int o = WARP_SIZE / 2; o > 0; o >>= 1)
    s += __shfl_xor_sync(FULL_MASK, s, o, WARP_SIZE);
  for (int c = lane; c < cols; c += WARP_SIZE)
    yr[c] = __fdividef(__expf(xr[c] - m), s);
}
