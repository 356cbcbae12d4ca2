// PK2006: a one-instruction inline PTX read of %laneid or %lanemask_* becomes
// an assignment from HIP's lane queries: with logical 32-lane warps
// __pk_lane32() and __pk_lanemask32(...) (the caller's 32-lane half of the
// 64-bit wave mask, as the 32 bits CUDA code expects); with native warps
// __lane_id() and the 64-bit __lanemask_* (the holding variable widens, PK2022).
// RUN: rm -rf %t && %pk port -q --to hip --report %t/r.json -o %t/log %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DIAG
// RUN: FileCheck %s --match-full-lines --check-prefix=LOG --input-file=%t/log/hip/PK2006.hip
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t/r.json
// RUN: %pk port -q --to hip --wave64=native -o %t/nat %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NAT-DIAG
// RUN: FileCheck %s --match-full-lines --check-prefix=NAT --input-file=%t/nat/hip/PK2006.hip
// REPORT:      "counts": {
// REPORT:        "PK2006": 3
// NAT-DIAG-NOT: [PK2006]
#include <cuda_runtime.h>
// LOG:      #ifndef PK_LOGICAL_LANE32_HELPERS
// LOG-NEXT: #define PK_LOGICAL_LANE32_HELPERS
// LOG-NEXT: // port-kernel: lane id and lane masks of a 32-lane logical warp [PK2006]
// LOG-NEXT: __device__ static inline unsigned __pk_lane32() { return __lane_id() & 31u; }
// LOG-NEXT: __device__ static inline unsigned __pk_lanemask32(unsigned long long m) {
// LOG-NEXT:   return (unsigned)(m >> (__lane_id() & 32u));
// LOG-NEXT: }
// LOG-NEXT: #endif // PK_LOGICAL_LANE32_HELPERS
// NAT-NOT: {{^}}#ifndef PK_LOGICAL_LANE32_HELPERS

__device__ __forceinline__ unsigned lane_id() {
  unsigned id;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(id));
// LOG:  id = __pk_lane32();
// NAT:  id = __lane_id();
// REPORT:      "line": [[@LINE-3]],
// REPORT-NEXT: "offset": {{[0-9]+}},
// REPORT-NEXT: "replacement": "id = __pk_lane32()",
// REPORT-NEXT: "rule": "PK2006",
// REPORT-NEXT: "why": "inline PTX %laneid -> __pk_lane32(): the lane's position in its 32-lane logical warp"
  return id;
}

__device__ __forceinline__ unsigned lanes_below() {
// NAT: __device__ __forceinline__ unsigned long long lanes_below() {
  unsigned m;
// NAT:  unsigned long long m;
  asm volatile("mov.u32 %0, %%lanemask_lt;" : "=r"(m));
// LOG:  m = __pk_lanemask32(__lanemask_lt());
// NAT:  m = __lanemask_lt();
  return m;
}

__device__ __forceinline__ unsigned lanes_upto() {
  unsigned m;
  asm("mov.u32 %0, %%lanemask_le;" : "=r"(m));
// LOG:  m = __pk_lanemask32(__lanemask_lt() | __lanemask_eq());
// NAT:  m = (__lanemask_lt() | __lanemask_eq());
// REPORT:      "replacement": "m = __pk_lanemask32(__lanemask_lt() | __lanemask_eq())",
// REPORT-NEXT: "rule": "PK2006",
// REPORT-NEXT: "why": "inline PTX %lanemask_le -> __pk_lanemask32(__lanemask_lt() | __lanemask_eq()): the lane's position in its 32-lane logical warp"
  return m;
}

// Rank of each passing lane among the passing lanes of its warp.
// DIAG: PK2006.cu:[[@LINE+1]]:1: note: kernel ranks: logical 32-lane warps inside 64-lane waves because {{.*}} [PK2000]
__global__ void ranks(const int *__restrict__ in, int *__restrict__ rank) {
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  const bool pass = (in[gid] & 1) != 0;
  const unsigned b = __ballot_sync(0xffffffff, pass);
  rank[gid] = pass ? __popc(b & lanes_below()) : -1 - (int)lane_id();
// LOG:  rank[gid] = pass ? __popc(b & lanes_below()) : -1 - (int)lane_id();
}

// Inclusive count of the set flags up to each lane.
// DIAG: PK2006.cu:[[@LINE+1]]:1: note: kernel upto: logical 32-lane warps inside 64-lane waves because {{.*}} [PK2000]
__global__ void upto(const int *__restrict__ in, int *__restrict__ out) {
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long m = __ballot_sync(0xffffffff, in[gid] > 0);
  out[gid] = __popcll(m & lanes_upto());
}
// DIAG-NOT: warning
