// Class 3: lane and warp ids computed with 31 and 5, votes over the warp.
// Per block: the maximum, whether any element is negative and whether all
// are below a limit.  The per-warp results go through a shared array indexed
// by the warp id.
#include <cuda_runtime.h>

__global__ void block_stats(const float *__restrict__ x, float limit,
                            float *__restrict__ maxOut, int *__restrict__ anyNeg,
                            int *__restrict__ allBelow) {
  __shared__ float warpMax[32];
  __shared__ int warpAny[32], warpAll[32];
  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x >> 5;
  const int nwarps = blockDim.x >> 5;
  const float v = x[blockIdx.x * blockDim.x + threadIdx.x];
  float m = v;
  for (int mask = 16; mask > 0; mask >>= 1)
    m = fmaxf(m, __shfl_xor_sync(0xffffffff, m, mask));
  const int neg = __any_sync(0xffffffff, v < 0.0f);
  const int below = __all_sync(0xffffffff, v < limit);
  if (lane == 0) {
    warpMax[warp] = m;
    warpAny[warp] = neg;
    warpAll[warp] = below;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    float bm = warpMax[0];
    int a = 0, b = 1;
    for (int w = 0; w < nwarps; ++w) {
      bm = fmaxf(bm, warpMax[w]);
      a |= warpAny[w] != 0;
      b &= warpAll[w] != 0;
    }
    maxOut[blockIdx.x] = bm;
    anyNeg[blockIdx.x] = a;
    allBelow[blockIdx.x] = b;
  }
}
