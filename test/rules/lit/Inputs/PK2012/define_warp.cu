#include <cuda_runtime.h>
// WARP_SIZE comes from -DWARP_SIZE=32 on the command line.
__global__ void warpSums(const int *in, int *out) {
  const int lane = threadIdx.x % WARP_SIZE;
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_down_sync(0xffffffff, v, o);
  if (lane == 0)
    out[(blockIdx.x * blockDim.x + threadIdx.x) / WARP_SIZE] = v;
}
