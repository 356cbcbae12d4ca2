// Stable stream compaction written in HIP with wave votes: each wave takes a
// 64-bit __ballot of its lanes' predicates, a lane's rank among the kept
// lanes below it is __popcll(ballot & __lanemask_lt()), the wave's count is
// __popcll(ballot) (lane 0, found with __lane_id()).  Waves are numbered by
// warpSize, so the block's output keeps the input order for any wave size.
// Block b writes its kept values to out[b * blockDim.x ...] and their number
// to counts[b].
#include <hip/hip_runtime.h>

#define MAX_WAVES 32

__global__ void compact_positive(const float *in, float *out, int *counts,
                                 int n) {
  __shared__ int waveCount[MAX_WAVES];
  __shared__ int waveBase[MAX_WAVES];
  const int tid = threadIdx.x;
  const int i = blockIdx.x * blockDim.x + tid;
  const int lane = __lane_id();
  const int wave = tid / warpSize;
  const int waves = (blockDim.x + warpSize - 1) / warpSize;
  const float x = i < n ? in[i] : 0.0f;
  const bool keep = i < n && x > 0.0f;
  const unsigned long long ballot = __ballot(keep);
  const int rank = __popcll(ballot & __lanemask_lt());
  if (lane == 0)
    waveCount[wave] = __popcll(ballot);
  __syncthreads();
  if (tid == 0) {
    int s = 0;
    for (int w = 0; w < waves; ++w) {
      waveBase[w] = s;
      s += waveCount[w];
    }
    counts[blockIdx.x] = s;
  }
  __syncthreads();
  if (keep)
    out[blockIdx.x * blockDim.x + waveBase[wave] + rank] = x;
}
