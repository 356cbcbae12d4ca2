// Class 6: reduction and scan loops bounded by 32 lanes.  A block-wide
// inclusive scan: a Kogge-Stone scan per warp (delta 1 .. 16), the warp
// totals from the last lane, a serial scan of the totals, and a block
// maximum from an xor butterfly starting at 16.
#include <cuda_runtime.h>

#define THREADS 256

__global__ void block_scan(const int *__restrict__ in, int *__restrict__ out,
                           int *__restrict__ blockMax) {
  __shared__ int totals[THREADS / 32];
  __shared__ int maxes[THREADS / 32];
  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x >> 5;
  const int gid = blockIdx.x * THREADS + threadIdx.x;
  int v = in[gid];
  int m = v;
  for (int delta = 1; delta < 32; delta <<= 1) {
    const int t = __shfl_up_sync(0xffffffff, v, delta);
    if (lane >= delta)
      v += t;
  }
  for (int offset = 16; offset > 0; offset >>= 1)
    m = max(m, __shfl_xor_sync(0xffffffff, m, offset));
  if (lane == 31)
    totals[warp] = v;
  if (lane == 0)
    maxes[warp] = m;
  __syncthreads();
  if (threadIdx.x == 0) {
    int run = 0, bm = maxes[0];
    for (int w = 0; w < THREADS / 32; ++w) {
      const int t = totals[w];
      totals[w] = run;
      run += t;
      bm = max(bm, maxes[w]);
    }
    blockMax[blockIdx.x] = bm;
  }
  __syncthreads();
  out[gid] = v + totals[warp];
}
