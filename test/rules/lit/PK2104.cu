// PK2104 (check): a shuffle without a width argument uses HIP's default
// width, the 64-lane wave: __shfl_down and __shfl_up cross into the other
// 32-lane half, a broadcast reaches lanes 32-63, and __shfl_xor does so when
// its lane mask can reach 32 or more.
// RUN: not %pk check -q --to hip %s 2>&1 | FileCheck %s --check-prefix=DIAG

#define FULL 0xffffffffu

// XOR partner at a distance the caller chooses.
__device__ float exchange(float v, int laneMask) {
// DIAG: PK2104.cu:[[@LINE+1]]:10: warning: __shfl_xor_sync: the default width is the 64-lane wave in HIP; a lane mask of 32 or more reads the other half [PK2104]
  return __shfl_xor_sync(FULL, v, laneMask);
}

__global__ void neighbours(const float *x, float *diff, float *first,
                           float *prefix, float *mx, float *pairs, int dist) {
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  const float v = x[gid];
// DIAG: PK2104.cu:[[@LINE+1]]:22: warning: __shfl_down_sync: the default width is the 64-lane wave in HIP: lanes 32-d..31 read the upper half instead of keeping their own value [PK2104]
  const float next = __shfl_down_sync(FULL, v, 1);
  diff[gid] = next - v;
// DIAG: PK2104.cu:[[@LINE+1]]:16: warning: __shfl_sync: the default width is the 64-lane wave in HIP: the broadcast reaches lanes 32-63 too [PK2104]
  first[gid] = __shfl_sync(FULL, v, 0);
  // Explicit widths, and lane masks below 32, stay within 32 lanes.
// DIAG-NOT: PK2104.cu:[[@LINE+1]]:{{.*}}[PK2104]
  const float prev = __shfl_up_sync(FULL, v, 1, 32);
  prefix[gid] = v + prev;
  float m = v;
  // An ascending butterfly: its lane masks are 1, 2, 4, 8, 16.
  for (int o = 1; o < 32; o *= 2)
// DIAG-NOT: PK2104.cu:[[@LINE+1]]:{{.*}}[PK2104]
    m = fmaxf(m, __shfl_xor_sync(FULL, m, o));
  mx[gid] = m;
// DIAG-NOT: PK2104.cu:[[@LINE+1]]:{{.*}}[PK2104]
  pairs[gid] = v + __shfl_xor_sync(FULL, v, 1) + exchange(v, dist);
}
// DIAG-NOT: [PK2104]
