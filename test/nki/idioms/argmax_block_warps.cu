// argmax_block_warps: idx[r] = argmax_c x[r][c] (first index on ties), one
// block of several warps per row.
// Idiom: a per-thread strided loop over the row, a __shfl_down_sync tree
// per warp, the warps' pairs through shared memory (lane 0 writes, a
// barrier), then warp 0 reduces them with padding (-FLT_MAX, INT_MAX) for
// the lanes past the block's warps; a helper combines two pairs.
// EXPECT: lift
#include <cuda_runtime.h>
#include <float.h>
#include <limits.h>

__device__ __forceinline__ void take_better(float &v, int &i, float ov,
                                            int oi) {
  bool better = ov > v || (ov == v && oi < i);
  v = better ? ov : v;
  i = better ? oi : i;
}

__device__ void warp_argmax(float &v, int &i) {
  for (int off = warpSize / 2; off > 0; off >>= 1) {
    float ov = __shfl_down_sync(0xffffffff, v, off);
    int oi = __shfl_down_sync(0xffffffff, i, off);
    take_better(v, i, ov, oi);
  }
}

__global__ void argmax_block_warps(int *idx, const float *x, int rows,
                                   int cols) {
  __shared__ float sv[32];
  __shared__ int si[32];
  int row = blockIdx.x;
  int tid = threadIdx.x;
  int lane = tid & 31, warp = tid >> 5;
  if (row >= rows)
    return;
  float v = -FLT_MAX;
  int i = 0;
  for (int c = tid; c < cols; c += blockDim.x) {
    float e = x[row * cols + c];
    if (e > v) {
      v = e;
      i = c;
    }
  }
  warp_argmax(v, i);
  if (lane == 0) {
    sv[warp] = v;
    si[warp] = i;
  }
  __syncthreads();
  if (warp == 0) {
    int nw = blockDim.x >> 5;
    v = lane < nw ? sv[lane] : -FLT_MAX;
    i = lane < nw ? si[lane] : INT_MAX;
    warp_argmax(v, i);
    if (lane == 0)
      idx[row] = i;
  }
}
