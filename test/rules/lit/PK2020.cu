// PK2020: in kernels on native 64-lane warps, *_sync shuffles become HIP's
// non-_sync forms without the mask and with an explicit width of 64; a
// sub-warp width such as 16 is kept, and unrolled reductions gain the
// offset-32 step.
// RUN: rm -rf %t && %pk port -q --to hip --wave64=native --report %t/r.json -o %t %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DIAG
// RUN: FileCheck %s --match-full-lines --input-file=%t/hip/PK2020.hip
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t/r.json
// RUN: FileCheck %s --check-prefix=NOSYNC --input-file=%t/hip/PK2020.hip
// --wave64=auto keeps logical warps for this kernel: thread 0 alone writes
// one warp's sum and maximum, which native warps would take over 64 lanes
// (PK2000); forced native warps warn at those writes (PK2012).
// RUN: %pk port -q --to hip --wave64=auto -o %t/auto %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=AUTO

// REPORT: "PK2020": {{[0-9]+}}
// REPORT: "rule": "PK2020",
// REPORT-NEXT: "why": "native 64-lane warps: the unrolled reduction gains the offset-32 step"
// REPORT: "rule": "PK2020",
// REPORT-NEXT: "why": "__shfl_down_sync{{.*}} -> __shfl_down(v, x, 64): the kernel uses native 64-lane warps; HIP shuffles have no mask"

#define FULL_MASK 0xffffffffu

// Lane 0 receives the warp's sum.
__device__ __forceinline__ float warpReduceSum(float v) {
  v += __shfl_down_sync(FULL_MASK, v, 16);
  v += __shfl_down_sync(FULL_MASK, v, 8);
  v += __shfl_down_sync(FULL_MASK, v, 4);
  v += __shfl_down_sync(FULL_MASK, v, 2);
  v += __shfl_down_sync(FULL_MASK, v, 1);
// CHECK:   v += __shfl_down(v, 32, 64);
// CHECK-NEXT:   v += __shfl_down(v, 16, 64);
// CHECK-NEXT:   v += __shfl_down(v, 8, 64);
// CHECK-NEXT:   v += __shfl_down(v, 4, 64);
// CHECK-NEXT:   v += __shfl_down(v, 2, 64);
// CHECK-NEXT:   v += __shfl_down(v, 1, 64);
  return v;
}

// Every lane receives the warp's maximum (the loop start is PK2021's).
__device__ __forceinline__ float warpAllMax(float v) {
  for (int o = 16; o > 0; o >>= 1)
    v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, o));
// CHECK:     v = fmaxf(v, __shfl_xor(v, o, 64));
  return v;
}

// Sums over groups of 16 lanes: the sub-warp width stays.
__device__ __forceinline__ float groupSum16(float v) {
  for (int o = 8; o > 0; o >>= 1)
// CHECK:   for (int o = 8; o > 0; o >>= 1)
    v += __shfl_xor_sync(0xffffffff, v, o, 16);
// CHECK:     v += __shfl_xor(v, o, 16);
  return v;
}

// DIAG: PK2020.cu:[[@LINE+2]]:1: note: kernel rowStats: native 64-lane warps (--wave64=native) [PK2000]
// AUTO: PK2020.cu:[[@LINE+1]]:1: note: kernel rowStats: logical 32-lane warps inside 64-lane waves because 'sum[blockIdx.x]' writes a value combined across one warp's lanes only from the threads 'threadIdx.x == 0' selects: under 64-lane warps it combines 64 lanes instead of 32 (line [[#@LINE+10]]) [PK2000]
__global__ void rowStats(const float *in, float *sum, float *mx, float *g16) {
  const float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  const float s = warpReduceSum(v);
  const float m = warpAllMax(v);
  const float h = groupSum16(v);
  // A broadcast written with the warp width: widened with it.
  const float first = __shfl_sync(0xffffffff, v, 0, 32);
// CHECK:   const float first = __shfl(v, 0, 64);
  if (threadIdx.x == 0) {
    sum[blockIdx.x] = s + first;
// DIAG: PK2020.cu:[[@LINE-1]]:5: warning: --wave64=native: 'sum[blockIdx.x]' writes a value combined across one warp's lanes only from the threads 'threadIdx.x == 0' selects: under 64-lane warps it combines 64 lanes instead of 32; the widened code may compute something else [PK2012]
    mx[blockIdx.x] = m;
// DIAG: PK2020.cu:[[@LINE-1]]:5: warning: --wave64=native: 'mx[blockIdx.x]' {{.*}} [PK2012]
    g16[blockIdx.x] = h;
  }
}
// NOSYNC-NOT: {{_sync[(]}}
// DIAG-NOT: warning
// AUTO-NOT: warning
