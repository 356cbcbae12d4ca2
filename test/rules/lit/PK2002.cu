// PK2002: with logical 32-lane warps, the CUDA votes __ballot_sync, __any_sync,
// __all_sync, __activemask (and legacy __ballot, __any, __all) become helpers
// generated once per file after the includes that vote within the caller's
// 32-lane half of the wave, so bit i is lane i of the logical warp as in CUDA.
// RUN: rm -rf %t && %pk port -q --to hip --wave64=logical32 --report %t/r.json \
// RUN:   -o %t %s 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: FileCheck %s --match-full-lines --input-file=%t/hip/PK2002.hip
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t/r.json
// REPORT:      "counts": {
// REPORT:        "PK2002": 13
// REPORT:      "replacement": "\n#ifndef PK_LOGICAL_WARP32_HELPERS\n
// REPORT-NEXT: "rule": "PK2002",
// REPORT-NEXT: "why": "helpers used by the rewrites in this file"
#include <cuda_runtime.h>
// CHECK:      #include <{{hip}}/hip_runtime.h>
// CHECK-EMPTY:
// CHECK-NEXT: #ifndef PK_LOGICAL_WARP32_HELPERS
// CHECK-NEXT: #define PK_LOGICAL_WARP32_HELPERS
// CHECK-NEXT: // port-kernel: 32-lane logical warps inside 64-lane waves [PK2002, PK2004]
// CHECK-NEXT: static constexpr int pk_warpSize = 32;
// CHECK-NEXT: __device__ static inline unsigned __pk_ballot32(int pred) {
// CHECK-NEXT:   return (unsigned)(__ballot(pred) >> (__lane_id() & 32u));
// CHECK-NEXT: }
// CHECK-NEXT: __device__ static inline unsigned __pk_activemask32() { return __pk_ballot32(1); }
// CHECK-NEXT: __device__ static inline bool __pk_any32(int pred) { return __pk_ballot32(pred) != 0u; }
// CHECK-NEXT: __device__ static inline bool __pk_all32(int pred) {
// CHECK-NEXT:   return __pk_ballot32(pred) == __pk_ballot32(1);
// CHECK-NEXT: }
// CHECK-NEXT: #endif // PK_LOGICAL_WARP32_HELPERS
// CHECK: #ifndef PK_LOGICAL_WARP32_COLLECTIVES
// CHECK: template <class T> __device__ static inline unsigned __pk_match_any32(unsigned mask, T v) {
// CHECK: #endif // PK_LOGICAL_WARP32_COLLECTIVES
// CHECK-NOT: {{^}}#ifndef PK_LOGICAL_WARP32_HELPERS

#define FULL_MASK 0xffffffff

// Order-preserving compaction within each warp.
// DIAG: PK2002.cu:[[@LINE+1]]:1: note: kernel compact: logical 32-lane warps inside 64-lane waves (--wave64=logical32) [PK2000]
__global__ void compact(const int *__restrict__ in, int *__restrict__ out,
                        int *__restrict__ warp_counts, int n) {
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x & 31;
  const bool keep = gid < n && in[gid] != 0;
  const unsigned ballot = __ballot_sync(FULL_MASK, keep);
// CHECK:  const unsigned ballot = __pk_ballot32(keep);
// REPORT:      "line": [[@LINE-2]],
// REPORT-NEXT: "offset": {{[0-9]+}},
// REPORT-NEXT: "replacement": "__pk_ballot32",
// REPORT-NEXT: "rule": "PK2002",
// REPORT-NEXT: "why": "__ballot_sync(mask, p) -> __pk_ballot32(p): HIP votes cover the 64-lane wave; the helper returns the caller's 32-lane half, as a 32-bit mask"
  const int rank = __popc(ballot & ((1u << lane) - 1));
// CHECK:  const int rank = __popc(ballot & ((1u << lane) - 1));
  if (keep)
    out[gid - lane + rank] = in[gid];
  if (lane == 0)
    warp_counts[gid / 32] = __popc(ballot);
}

// DIAG: PK2002.cu:[[@LINE+1]]:1: note: kernel flags: logical 32-lane warps inside 64-lane waves (--wave64=logical32) [PK2000]
__global__ void flags(const float *x, int *any_neg, int *all_pos, unsigned *active) {
  const float v = x[blockIdx.x * blockDim.x + threadIdx.x];
  const bool neg = __any_sync(0xffffffff, v < 0.f);
// CHECK:  const bool neg = __pk_any32(v < 0.f);
  const bool pos = __all_sync(0xffffffff, v > 0.f);
// CHECK:  const bool pos = __pk_all32(v > 0.f);
  const unsigned act = __activemask();
// CHECK:  const unsigned act = __pk_activemask32();
// REPORT:      "replacement": "__pk_activemask32",
// REPORT-NEXT: "rule": "PK2002",
// REPORT-NEXT: "why": "__activemask() -> the caller's 32-lane half of the wave"
  const unsigned legacy = __ballot(v == 0.f);
// CHECK:  const unsigned legacy = __pk_ballot32(v == 0.f);
  if ((threadIdx.x & 31) == 0) {
    any_neg[threadIdx.x / 32] = neg;
    all_pos[threadIdx.x / 32] = pos && legacy == 0;
    active[threadIdx.x / 32] = act;
  }
}

// Match and reduce collectives: helpers over shuffles of the 32-lane half
// that honour the mask (HIP has none before ROCm 6.2, a 64-bit form after).
__global__ void peers(const int *keys, int n, unsigned *bins, unsigned *sums) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int key = keys[i];
  unsigned active = __activemask();
  unsigned same = __match_any_sync(active, key);
// CHECK:  unsigned same = __pk_match_any32(active, key);
  int all;
  unsigned uniform = __match_all_sync(active, key, &all);
// CHECK:  unsigned uniform = __pk_match_all32(active, key, &all);
  unsigned total = __reduce_add_sync(active, (unsigned)key);
// CHECK:  unsigned total = __pk_reduce_add32(active, (unsigned)key);
  if ((threadIdx.x & 31) == __ffs(same) - 1) atomicAdd(&bins[key], __popc(same));
  if ((threadIdx.x & 31) == 0) sums[i / 32] = total + (all ? uniform : 0u);
}
// DIAG-NOT: warning
