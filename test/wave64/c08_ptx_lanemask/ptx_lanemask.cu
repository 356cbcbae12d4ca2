// Class 8 through inline PTX: the lane id from %laneid and the lanes below
// from %lanemask_lt.  Each lane learns its rank among the passing lanes of
// its warp and the warp's count; thread 0 adds the counts.
#include <cuda_runtime.h>

__device__ __forceinline__ unsigned lane_id() {
  unsigned id;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(id));
  return id;
}

__device__ __forceinline__ unsigned lanes_below() {
  unsigned m;
  asm volatile("mov.u32 %0, %%lanemask_lt;" : "=r"(m));
  return m;
}

__global__ void ranks(const int *__restrict__ in, int *__restrict__ rank,
                      int *__restrict__ total) {
  __shared__ int counts[8];
  const unsigned lane = lane_id();
  const int warp = threadIdx.x / 32;
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  const bool pass = (in[gid] & 1) != 0;
  const unsigned b = __ballot_sync(0xffffffff, pass);
  rank[gid] = pass ? __popc(b & lanes_below()) : -1;
  if (lane == 0)
    counts[warp] = __popc(b);
  __syncthreads();
  if (threadIdx.x == 0) {
    int s = 0;
    for (int w = 0; w < blockDim.x / 32; ++w)
      s += counts[w];
    total[blockIdx.x] = s;
  }
}
