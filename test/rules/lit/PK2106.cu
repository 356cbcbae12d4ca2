// PK2106 (check): reduction loops starting at offset 16 (or WARP_SIZE / 2),
// scan loops bounded by 32 and unrolled 16, 8, 4, 2, 1 shuffle chains cover
// 32 lanes; a 64-lane wave needs the offset-32 step too.
// RUN: not %pk check -q --to hip %s 2>&1 | FileCheck %s --check-prefix=DIAG

#define WARP_SIZE 32
#define FULL 0xffffffffu

__device__ __forceinline__ float warpReduceSum(float v) {
// DIAG: PK2106.cu:[[@LINE+1]]:3: warning: unrolled shuffle steps 16, 8, 4, 2, 1 reduce 32 lanes only [PK2106]
  v += __shfl_down_sync(FULL, v, 16);
  v += __shfl_down_sync(FULL, v, 8);
  v += __shfl_down_sync(FULL, v, 4);
  v += __shfl_down_sync(FULL, v, 2);
  v += __shfl_down_sync(FULL, v, 1);
  return v;
}

__device__ __forceinline__ float warpReduceMax(float v) {
// DIAG: PK2106.cu:[[@LINE+1]]:3: warning: reduction loop starting at 'WARP_SIZE / 2' covers 32 lanes; a 64-lane wave needs the offset-32 step too [PK2106]
  for (int o = WARP_SIZE / 2; o > 0; o >>= 1)
    v = fmaxf(v, __shfl_xor_sync(FULL, v, o));
  return v;
}

// Kogge-Stone inclusive scan over the warp.
__device__ __forceinline__ int warpScan(int v, int lane) {
// DIAG: PK2106.cu:[[@LINE+1]]:3: warning: scan loop bounded by '32' covers 32 lanes [PK2106]
  for (int d = 1; d < 32; d <<= 1) {
    const int t = __shfl_up_sync(FULL, v, d);
    if (lane >= d)
      v += t;
  }
  return v;
}

// A reduction over 16-lane segments is meant to cover 16 lanes.
__device__ __forceinline__ float segmentSum16(float v) {
// DIAG-NOT: PK2106.cu:[[@LINE+1]]:{{.*}}[PK2106]
  for (int o = 8; o > 0; o >>= 1)
    v += __shfl_xor_sync(FULL, v, o, 16);
  return v;
}

__global__ void stats(const float *x, const int *c, float *sum, float *mx,
                      int *scan, float *seg) {
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  sum[gid] = warpReduceSum(x[gid]);
  mx[gid] = warpReduceMax(x[gid]);
  scan[gid] = warpScan(c[gid], threadIdx.x % 32);
  seg[gid] = segmentSum16(x[gid]);
}
// DIAG-NOT: [PK2106]
