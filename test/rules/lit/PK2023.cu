// PK2023: in kernels on native 64-lane warps, votes cover the whole wave:
// __ballot_sync, __any_sync and __all_sync lose their mask, and
// __activemask() becomes __ballot(1).
// RUN: rm -rf %t && %pk port -q --to hip --wave64=native --report %t/r.json -o %t %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DIAG
// RUN: FileCheck %s --match-full-lines --input-file=%t/hip/PK2023.hip
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t/r.json
// --wave64=auto picks native warps here too.
// RUN: %pk port -q --to hip -o %t/auto %s 2>&1 | FileCheck %s --check-prefix=AUTO
// RUN: FileCheck %s --match-full-lines --input-file=%t/auto/hip/PK2023.hip

// REPORT: "PK2023": {{[0-9]+}}
// REPORT: "replacement": "__any",
// REPORT-NEXT: "rule": "PK2023",
// REPORT-NEXT: "why": "__any_sync(mask, p) -> __any(p): a vote over the native 64-lane warp"
// REPORT: "replacement": "__all",
// REPORT-NEXT: "rule": "PK2023",
// REPORT-NEXT: "why": "__all_sync(mask, p) -> __all(p): a vote over the native 64-lane warp"
// REPORT: "replacement": "__ballot",
// REPORT-NEXT: "rule": "PK2023",
// REPORT-NEXT: "why": "__ballot_sync(mask, p) -> __ballot(p): a vote over the native 64-lane warp (64-bit result)"
// REPORT: "replacement": "__ballot",
// REPORT-NEXT: "rule": "PK2023",
// REPORT-NEXT: "why": "__activemask() -> __ballot(1): the 64-bit mask of the active lanes of the wave"

#define FULL_MASK 0xffffffff
#define WARP_ANY(p) __any_sync(FULL_MASK, p)
// CHECK: #define WARP_ANY(p) __any(p)

// Per block: whether any element is negative, whether all are below a limit,
// how many exceed it, and how many lanes hold a non-zero value.
// DIAG: PK2023.cu:[[@LINE+2]]:1: note: kernel blockFlags: native 64-lane warps (--wave64=native) [PK2000]
// AUTO: PK2023.cu:[[@LINE+1]]:1: note: kernel blockFlags: native 64-lane warps (its warp code does not depend on the data layout of 32-lane warps) [PK2000]
__global__ void blockFlags(const float *x, float limit, int *anyNeg,
                           int *allBelow, int *above, int *nonZero) {
  __shared__ int warpAny[16], warpAll[16], warpAbove[16], warpNonZero[16];
  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x >> 5;
  const float v = x[blockIdx.x * blockDim.x + threadIdx.x];
  const int neg = WARP_ANY(v < 0.0f);
// CHECK:   const int neg = WARP_ANY(v < 0.0f);
  const int below = __all_sync(FULL_MASK, v < limit);
// CHECK:   const int below = __all(v < limit);
  const unsigned votes = __ballot_sync(FULL_MASK, v > limit);
// CHECK:   const unsigned long long votes = __ballot(v > limit);
  if (v != 0.0f) {
    const unsigned mask = __activemask();
// CHECK:     const unsigned long long mask = __ballot(1);
    if (lane == __ffs(mask) - 1)
      warpNonZero[warp] = __popc(mask);
  }
  if (lane == 0) {
    warpAny[warp] = neg;
    warpAll[warp] = below;
    warpAbove[warp] = __popc(votes);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    int a = 0, b = 1, c = 0, n = 0;
    for (int w = 0; w < blockDim.x / 32; ++w) {
      a |= warpAny[w];
      b &= warpAll[w];
      c += warpAbove[w];
      n += warpNonZero[w];
    }
    anyNeg[blockIdx.x] = a;
    allBelow[blockIdx.x] = b;
    above[blockIdx.x] = c;
    nonZero[blockIdx.x] = n;
  }
}
// DIAG-NOT: warning
// AUTO-NOT: warning
