// Class 8: lane-bit tricks with 32-bit masks.  Order-preserving compaction
// per block: the rank of a lane is __popc(ballot & ((1u << lane) - 1)), the
// warp's count is written by its first passing lane (__ffs(ballot) - 1).
#include <cuda_runtime.h>

#define THREADS 128

__global__ void compact(const float *__restrict__ in, float *__restrict__ out,
                        int *__restrict__ kept) {
  __shared__ int warpCount[THREADS / 32];
  __shared__ int warpBase[THREADS / 32];
  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x / 32;
  const float v = in[blockIdx.x * THREADS + threadIdx.x];
  const bool pass = v > 0.25f;
  const unsigned ballot = __ballot_sync(0xffffffff, pass);
  const unsigned below = (1u << lane) - 1u;
  const int rank = __popc(ballot & below);
  const int leader = __ffs(ballot) - 1;
  if (lane == 0)
    warpCount[warp] = 0;
  __syncwarp();
  if (lane == leader)
    warpCount[warp] = __popc(ballot);
  __syncthreads();
  if (threadIdx.x == 0) {
    int run = 0;
    for (int w = 0; w < THREADS / 32; ++w) {
      warpBase[w] = run;
      run += warpCount[w];
    }
    kept[blockIdx.x] = run;
  }
  __syncthreads();
  if (pass)
    out[blockIdx.x * THREADS + warpBase[warp] + rank] = v;
}
