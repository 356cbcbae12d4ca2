// Single-pass inclusive prefix sum over ints.  Each block first reduces all
// elements in front of its tile (so no second pass or inter-block flags are
// needed), then scans its tile: Kogge-Stone shuffle scan inside each warp,
// a scan of the per-warp totals by warp 0, and a final fix-up.
#include <cuda_runtime.h>

template <int BLOCK_THREADS>
__global__ void scan_inclusive(const int *__restrict__ in, int *__restrict__ out,
                               int n) {
  static_assert(BLOCK_THREADS % 32 == 0 && BLOCK_THREADS <= 1024,
                "block must be whole warps");
  constexpr int NUM_WARPS = BLOCK_THREADS / 32;
  __shared__ int warpPartials[32];
  __shared__ int warpTotals[32];

  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x >> 5;
  const int tileStart = blockIdx.x * BLOCK_THREADS;

  // 1. Sum of everything before this tile.
  int pre = 0;
  for (int i = threadIdx.x; i < tileStart; i += BLOCK_THREADS)
    pre += in[i];
  for (int offset = 16; offset > 0; offset >>= 1)
    pre += __shfl_down_sync(0xffffffff, pre, offset);
  if (lane == 0)
    warpPartials[warp] = pre;
  __syncthreads();
  int blockOffset = 0;
#pragma unroll
  for (int w = 0; w < NUM_WARPS; ++w)
    blockOffset += warpPartials[w];

  // 2. Inclusive scan inside each warp.
  const int gid = tileStart + threadIdx.x;
  int v = gid < n ? in[gid] : 0;
#pragma unroll
  for (int delta = 1; delta < 32; delta <<= 1) {
    const int t = __shfl_up_sync(0xffffffff, v, delta);
    if (lane >= delta)
      v += t;
  }
  if (lane == 31)
    warpTotals[warp] = v;
  __syncthreads();

  // 3. Warp 0 scans the warp totals.
  if (warp == 0) {
    int t = lane < NUM_WARPS ? warpTotals[lane] : 0;
#pragma unroll
    for (int delta = 1; delta < 32; delta <<= 1) {
      const int u = __shfl_up_sync(0xffffffff, t, delta);
      if (lane >= delta)
        t += u;
    }
    if (lane < NUM_WARPS)
      warpTotals[lane] = t;
  }
  __syncthreads();

  // 4. Add the totals of the preceding warps and tiles.
  if (warp > 0)
    v += warpTotals[warp - 1];
  if (gid < n)
    out[gid] = v + blockOffset;
}
