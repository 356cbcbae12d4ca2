// Order-preserving stream compaction per block: every block keeps the
// elements of its 256-element tile that pass the predicate, packed to the
// front of the tile's slot in `out`, and writes how many it kept.  Ranks
// within a warp come from a ballot and a population count.
#include <cuda_runtime.h>

#define THREADS 256
#define WARPS_PER_BLOCK (THREADS / 32)

__device__ __forceinline__ bool keep(float v, float threshold) {
  return v > threshold;
}

__global__ void compact_by_threshold(const float *__restrict__ in,
                                     float *__restrict__ out,
                                     int *__restrict__ blockCounts, int n,
                                     float threshold) {
  __shared__ int warpCounts[WARPS_PER_BLOCK];
  __shared__ int warpOffsets[WARPS_PER_BLOCK];

  const int lane = threadIdx.x % 32;
  const int warp = threadIdx.x / 32;
  const int gid = blockIdx.x * THREADS + threadIdx.x;

  const float v = gid < n ? in[gid] : 0.0f;
  const bool pred = gid < n && keep(v, threshold);

  // Every lane votes, including those past the end of the input.
  unsigned ballot = __ballot_sync(0xffffffff, pred);
  const unsigned lanesBelow = (1u << lane) - 1u;
  const int rankInWarp = __popc(ballot & lanesBelow);
  if (lane == 0)
    warpCounts[warp] = __popc(ballot);
  __syncthreads();

  if (threadIdx.x == 0) {
    int running = 0;
    for (int w = 0; w < WARPS_PER_BLOCK; ++w) {
      warpOffsets[w] = running;
      running += warpCounts[w];
    }
    blockCounts[blockIdx.x] = running;
  }
  __syncthreads();

  if (pred)
    out[blockIdx.x * THREADS + warpOffsets[warp] + rankInWarp] = v;
}
