// Warp-32 idioms whose data layout does not depend on 32: native 64-lane
// warps can widen every one of them.  The golden cases wave64_native and
// wave64_logical32 port this same source with each strategy.
#include <cuda_runtime.h>

#define WARP_SIZE 32
#define FULL_MASK 0xffffffffu
#define THREADS 256
#define WARPS_PER_BLOCK (THREADS / WARP_SIZE)

constexpr int kWarpSize = 32;

// Lane 0 receives the warp's sum: an unrolled reduction.
__device__ float warp_sum(float v) {
  v += __shfl_down_sync(FULL_MASK, v, 16);
  v += __shfl_down_sync(FULL_MASK, v, 8);
  v += __shfl_down_sync(FULL_MASK, v, 4);
  v += __shfl_down_sync(FULL_MASK, v, 2);
  v += __shfl_down_sync(FULL_MASK, v, 1);
  return v;
}

// Every lane receives the warp's maximum.
__device__ float warp_max(float v) {
  for (int o = warpSize / 2; o > 0; o >>= 1)
    v = fmaxf(v, __shfl_xor_sync(FULL_MASK, v, o));
  return v;
}

__device__ unsigned warp_votes(bool p) { return __ballot_sync(FULL_MASK, p); }

__global__ void block_stats(const float *in, float *sum, float *mx, int *count,
                            int *allPositive) {
  __shared__ float sums[WARPS_PER_BLOCK];
  __shared__ float maxes[kWarpSize];
  __shared__ int counts[WARPS_PER_BLOCK];
  __shared__ int full[WARPS_PER_BLOCK];
  const int lane = threadIdx.x & (WARP_SIZE - 1);
  const int warp = threadIdx.x / kWarpSize;
  const float v = in[blockIdx.x * THREADS + threadIdx.x];
  const float s = warp_sum(v);
  const float m = warp_max(v);
  const unsigned b = warp_votes(v > 0.0f);
  if (lane == 0) {
    sums[warp] = s;
    maxes[warp] = m;
    counts[warp] = __popc(b);
    full[warp] = b == FULL_MASK;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    float ts = 0.0f, tm = maxes[0];
    int tc = 0, all = 1;
    for (int w = 0; w < WARPS_PER_BLOCK; ++w) {
      ts += sums[w];
      tm = fmaxf(tm, maxes[w]);
      tc += counts[w];
      all &= full[w];
    }
    sum[blockIdx.x] = ts;
    mx[blockIdx.x] = tm;
    count[blockIdx.x] = tc;
    allPositive[blockIdx.x] = all;
  }
}

// Block-wide inclusive scan: a warp scan, totals from the last lane.
template <int BLOCK>
__global__ void block_scan(const int *in, int *out) {
  static_assert(BLOCK % 32 == 0, "whole warps");
  constexpr int NUM_WARPS = BLOCK / 32;
  __shared__ int totals[NUM_WARPS];
  const int lane = threadIdx.x % 32;
  const int warp = threadIdx.x >> 5;
  const int gid = blockIdx.x * BLOCK + threadIdx.x;
  int v = in[gid];
  for (int d = 1; d <= 16; d *= 2) {
    const int t = __shfl_up_sync(0xffffffff, v, d);
    if (lane >= d)
      v += t;
  }
  if (lane == 31)
    totals[warp] = v;
  __syncthreads();
  if (threadIdx.x == 0)
    for (int w = 1; w < NUM_WARPS; ++w)
      totals[w] += totals[w - 1];
  __syncthreads();
  out[gid] = warp > 0 ? v + totals[warp - 1] : v;
}

// Order-preserving compaction: ranks from lane bits, the warp's first and
// last passing lanes from __ffs and __clz.
__global__ void compact(const float *in, float *out, int *kept, int *checked) {
  __shared__ int counts[8], base[8], lastRank[8];
  const int lane = threadIdx.x % 32;
  const int warp = threadIdx.x / 32;
  const int nwarps = (blockDim.x + 31) / 32;
  const float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  const bool pass = v > 0.5f;
  unsigned ballot = __ballot_sync(0xffffffff, pass);
  unsigned below = (1u << lane) - 1u;
  const int rank = __popc(ballot & below);
  const int first = __ffs(ballot) - 1;
  const int last = 31 - __clz(ballot);
  if (lane == 0)
    counts[warp] = lastRank[warp] = 0;
  __syncwarp();
  if (lane == first)
    counts[warp] = __popc(ballot);
  if (lane == last)
    lastRank[warp] = rank + 1;
  __syncthreads();
  if (threadIdx.x == 0) {
    int run = 0, check = 0;
    for (int w = 0; w < nwarps; ++w) {
      base[w] = run;
      run += counts[w];
      check += lastRank[w];
    }
    kept[blockIdx.x] = run;
    checked[blockIdx.x] = check == run;
  }
  __syncthreads();
  if (pass)
    out[blockIdx.x * blockDim.x + base[warp] + rank] = v;
}

// A shared-memory tree down to one warp's pairs, then the first warp.
__global__ void block_reduce(const float *in, float *partial) {
  __shared__ float sdata[THREADS];
  const unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * THREADS + tid];
  __syncthreads();
  for (unsigned s = THREADS / 2; s > WARP_SIZE; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid < WARP_SIZE) {
    float v = sdata[tid] + sdata[tid + WARP_SIZE];
    for (int o = WARP_SIZE / 2; o > 0; o /= 2)
      v += __shfl_down_sync(FULL_MASK, v, o);
    if (tid == 0)
      partial[blockIdx.x] = v;
  }
}
