// PK2003: HIP has no __syncwarp; __syncwarp(mask) becomes __pk_syncwarp(), a
// helper generated once per file that orders shared-memory accesses with
// block-scope fences around a wave barrier.  The mask is dropped.  Both
// strategies: warp_transpose keeps logical 32-lane warps, block_sum goes native.
// RUN: rm -rf %t && %pk port -q --to hip --report %t/r.json -o %t %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DIAG
// RUN: FileCheck %s --match-full-lines --input-file=%t/hip/PK2003.hip
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t/r.json
// REPORT:      "counts": {
// REPORT:        "PK2003": 6
#include <cuda_runtime.h>
// CHECK:      #include <{{hip}}/hip_runtime.h>
// CHECK-EMPTY:
// CHECK-NEXT: #ifndef PK_SYNCWARP_HELPER
// CHECK-NEXT: #define PK_SYNCWARP_HELPER
// CHECK-NEXT: // port-kernel: a wave executes in lockstep; order its shared-memory accesses [PK2003]
// CHECK-NEXT: __device__ static inline void __pk_syncwarp() {
// CHECK-NEXT:   __threadfence_block();
// CHECK-NEXT:   __builtin_amdgcn_wave_barrier();
// CHECK-NEXT:   __threadfence_block();
// CHECK-NEXT: }
// CHECK-NEXT: #endif // PK_SYNCWARP_HELPER
// CHECK-NOT: {{^}}#ifndef PK_SYNCWARP_HELPER

#define WARP_SYNC() __syncwarp()
// CHECK: #define WARP_SYNC() __pk_syncwarp()
// REPORT:      "line": [[@LINE-2]],
// REPORT-NEXT: "offset": {{[0-9]+}},
// REPORT-NEXT: "replacement": "__pk_syncwarp",
// REPORT-NEXT: "rule": "PK2003",
// REPORT-NEXT: "why": "__syncwarp -> wave barrier with block-scope fences (HIP has no __syncwarp; a wave executes in lockstep)"

// Warp-level transpose of a 32x32 tile staged in shared memory (one warp
// per block).
// DIAG: PK2003.cu:[[@LINE+1]]:1: note: kernel warp_transpose: logical 32-lane warps inside 64-lane waves because {{.*}} [PK2000]
__global__ void warp_transpose(const float *in, float *out) {
  __shared__ float tile[32][33];
  const int lane = threadIdx.x & 31;
  for (int r = 0; r < 32; ++r)
    tile[r][lane] = in[r * 32 + lane];
  __syncwarp();
// CHECK:  __pk_syncwarp();
  for (int r = 0; r < 32; ++r)
    out[r * 32 + lane] = tile[lane][r];
  __syncwarp(0xffffffff);
// CHECK:  __pk_syncwarp();
// REPORT:      "line": [[@LINE-2]],
// REPORT-NEXT: "offset": {{[0-9]+}},
// REPORT-NEXT: "replacement": "__pk_syncwarp",
// REPORT-NEXT: "rule": "PK2003",
// REPORT:      "line": [[@LINE-6]],
// REPORT-NEXT: "offset": {{[0-9]+}},
// REPORT-NEXT: "replacement": "",
// REPORT-NEXT: "rule": "PK2003",
  WARP_SYNC();
// CHECK:  WARP_SYNC();
}

// A block-wide sum whose warps meet at a warp barrier.
// DIAG: PK2003.cu:[[@LINE+1]]:1: note: kernel block_sum: native 64-lane warps (its warp code does not depend on the data layout of 32-lane warps) [PK2000]
__global__ void block_sum(const float *in, float *out) {
  __shared__ float s[256];
  s[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  if (threadIdx.x == 0) {
    float t = 0.f;
    for (int i = 0; i < blockDim.x; ++i) t += s[i];
    out[blockIdx.x] = t;
  }
  __syncwarp();
// CHECK:  __pk_syncwarp();
}
// DIAG-NOT: warning
