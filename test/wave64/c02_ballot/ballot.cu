// Class 2: ballot results in 32-bit variables, __popc on them, and the
// "every lane" test against 0xffffffff.  Per block: how many elements pass
// the threshold, and whether all of them do.
#include <cuda_runtime.h>

#define WARP_SIZE 32
#define THREADS 128
#define WARPS (THREADS / WARP_SIZE)

__global__ void count_above(const int *__restrict__ x, int threshold,
                            int *__restrict__ count, int *__restrict__ all) {
  __shared__ int warpCount[WARPS];
  __shared__ int warpFull[WARPS];
  const int lane = threadIdx.x % WARP_SIZE;
  const int warp = threadIdx.x / WARP_SIZE;
  const int gid = blockIdx.x * THREADS + threadIdx.x;
  const bool pass = x[gid] >= threshold;
  unsigned votes = __ballot_sync(0xffffffff, pass);
  if (lane == 0) {
    warpCount[warp] = __popc(votes);
    warpFull[warp] = votes == 0xffffffff;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    int c = 0, a = 1;
    for (int w = 0; w < WARPS; ++w) {
      c += warpCount[w];
      a &= warpFull[w];
    }
    count[blockIdx.x] = c;
    all[blockIdx.x] = a;
  }
}
