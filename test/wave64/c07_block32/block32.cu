// Class 7: blocks of 32 threads.  Each 32-thread block scans its elements
// and the last lane (warpSize - 1) writes the block total.  A 32-thread
// block fills half a 64-lane wave, so lane warpSize - 1 does not exist.
#include <cuda_runtime.h>

__global__ void tile_scan(const float *__restrict__ in, float *__restrict__ out,
                          float *__restrict__ totals) {
  const int lane = threadIdx.x % warpSize;
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[gid];
  for (int d = 1; d < warpSize; d *= 2) {
    const float t = __shfl_up_sync(0xffffffff, v, d);
    if (lane >= d)
      v += t;
  }
  out[gid] = v;
  if (lane == warpSize - 1)
    totals[blockIdx.x] = v;
}

void launch_tile_scan(const float *in, float *out, float *totals, int tiles) {
  tile_scan<<<tiles, 32>>>(in, out, totals);
}
