// rowsumsq_float4_warp: s[r] = sum_c x[r][c]^2 for rows of cols floats
// (cols a multiple of 4), one warp per row reading float4 vectors.
// Idiom: `for (j = lane; j < cols / 4; j += 32)` over a `const float4 *`
// row, the four fields summed in one expression, an xor butterfly; the
// vectorised loads of production kernels (llm.c's x128 style).
// EXPECT: lift
#include <cuda_runtime.h>

__global__ void rowsumsq_float4_warp(float *s, const float *x, int rows,
                                     int cols) {
  int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  int lane = threadIdx.x % 32;
  if (row >= rows)
    return;
  const float4 *xr = reinterpret_cast<const float4 *>(x + row * cols);
  float acc = 0.0f;
  for (int j = lane; j < cols / 4; j += 32) {
    float4 v = xr[j];
    acc += v.x * v.x + v.y * v.y + v.z * v.z + v.w * v.w;
  }
  for (int o = 16; o > 0; o >>= 1)
    acc += __shfl_xor_sync(0xffffffff, acc, o);
  if (lane == 0)
    s[row] = acc;
}
