// PK2101 (check): a *_sync intrinsic given a 32-bit lane mask (a constant,
// a mask held in a 32-bit variable, or a partial mask); HIP's *_sync forms
// need 64-bit masks on 64-lane waves.
// RUN: not %pk check -q --to hip %s 2>&1 | FileCheck %s --check-prefix=DIAG

#define FULL_MASK 0xffffffffu

template <typename T>
__device__ T warpSum(T v) {
  for (int o = 16; o > 0; o >>= 1)
// DIAG: PK2101.cu:[[@LINE+1]]:26: warning: __shfl_xor_sync: mask FULL_MASK names lanes 0-31 only; a wave has 64 lanes and HIP's *_sync forms need a 64-bit mask [PK2101]
    v += __shfl_xor_sync(FULL_MASK, v, o);
  return v;
}

// Sums over the warp and over 16-lane segments.
__global__ void segSums(const float *in, float *out, int n) {
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  const float x = gid < n ? in[gid] : 0.0f;
  float s = warpSum(x);
  const unsigned active = __activemask();
// DIAG: PK2101.cu:[[@LINE+1]]:34: warning: __shfl_down_sync: mask 'active' is a 32-bit lane set; HIP's *_sync forms need a 64-bit mask [PK2101]
  float h = x + __shfl_down_sync(active, x, 8, 16);
// DIAG: PK2101.cu:[[@LINE+1]]:25: warning: __shfl_down_sync: mask 0x0000ffff is a 32-bit lane set: it names a subset of a 32-lane warp [PK2101]
  h += __shfl_down_sync(0x0000ffff, h, 1, 16);
  // No mask written: nothing to report.
// DIAG-NOT: PK2101.cu:[[@LINE+1]]:{{.*}}[PK2101]
  __syncwarp();
// DIAG: PK2101.cu:[[@LINE+1]]:14: warning: __syncwarp: mask FULL_MASK names lanes 0-31 only; a wave has 64 lanes and HIP's *_sync forms need a 64-bit mask [PK2101]
  __syncwarp(FULL_MASK);
  if (threadIdx.x % 32 == 0)
    out[gid / 32] = s + h;
}
// DIAG-NOT: [PK2101]
