// Block and warp statistics with CUB: per-block sums (BlockReduce), per-warp
// maxima (WarpReduce with CUB's default 32-thread logical warp) and per-block
// exclusive offsets of the positive values (BlockScan).
#pragma once
#include <cub/cub.cuh>

#define BLOCK 128

struct MaxOp {
  __device__ float operator()(float a, float b) const { return a < b ? b : a; }
};
#define WARPS_PER_BLOCK (BLOCK / 32)

__global__ void block_stats(const float *x, float *block_sum, float *warp_max, int *pos_offset,
                            int n) {
  typedef cub::BlockReduce<float, BLOCK> BlockReduceT;
  typedef cub::WarpReduce<float> WarpReduceT;
  typedef cub::BlockScan<int, BLOCK> BlockScanT;
  __shared__ typename BlockReduceT::TempStorage reduce_tmp;
  __shared__ typename WarpReduceT::TempStorage warp_tmp[WARPS_PER_BLOCK];
  __shared__ typename BlockScanT::TempStorage scan_tmp;

  int i = blockIdx.x * BLOCK + threadIdx.x;
  float v = i < n ? x[i] : 0.0f;
  float sum = BlockReduceT(reduce_tmp).Sum(v);
  if (threadIdx.x == 0) block_sum[blockIdx.x] = sum;

  int warp = threadIdx.x / 32;
  float m = WarpReduceT(warp_tmp[warp]).Reduce(i < n ? v : -1e30f, MaxOp());
  if (threadIdx.x % 32 == 0) warp_max[blockIdx.x * WARPS_PER_BLOCK + warp] = m;

  int offset;
  BlockScanT(scan_tmp).ExclusiveSum(v > 0.0f ? 1 : 0, offset);
  if (i < n) pos_offset[i] = offset;
}
