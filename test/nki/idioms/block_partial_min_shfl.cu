// block_partial_min_shfl: lo[b] = min of |x[i]| over the chunk of 2 *
// blockDim.x elements block b owns (one chunk per block, two elements per
// thread), +inf for a block past the end.
// Idiom: two bound-checked loads, fminf with INFINITY, __shfl_xor_sync in
// each warp, per-warp minima through shared memory, warp 0 finishes.
// EXPECT: lift
#include <cuda_runtime.h>
#include <math.h>

__global__ void block_partial_min_shfl(float *lo, const float *x, int n) {
  __shared__ float warp_min[32];
  int i = blockIdx.x * blockDim.x * 2 + threadIdx.x;
  float v = INFINITY;
  if (i < n)
    v = fabsf(x[i]);
  if (i + blockDim.x < n)
    v = fminf(v, fabsf(x[i + blockDim.x]));
  for (int o = 16; o > 0; o >>= 1)
    v = fminf(v, __shfl_xor_sync(0xffffffffu, v, o));
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0)
    warp_min[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < (blockDim.x >> 5) ? warp_min[lane] : INFINITY;
    for (int o = 16; o > 0; o >>= 1)
      v = fminf(v, __shfl_xor_sync(0xffffffffu, v, o));
    if (lane == 0)
      lo[blockIdx.x] = v;
  }
}
