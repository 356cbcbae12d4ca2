// PK6031: HIP's __lane_id() and __lanemask_lt() (no CUDA builtin) become
// helpers for 32-lane warps, inserted once.
// RUN: rm -rf %t && %pk port -q --to cuda -o %t %s 2>&1 | count 0
// RUN: FileCheck %s --match-full-lines --input-file=%t/cuda/PK6031.cu
// RUN: FileCheck %s --check-prefix=HELPER --input-file=%t/cuda/PK6031.cu
// HELPER: // port-kernel: HIP lane queries on 32-lane warps [PK6031]
// HELPER: __device__ static inline unsigned __pk_lane_id() {
// HELPER-NEXT:   return (threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) & 31u;
// HELPER: __device__ static inline unsigned __pk_lanemask_lt() { return (1u << __pk_lane_id()) - 1u; }
#include <hip/hip_runtime.h>

__global__ void ranks(unsigned long long b, int *rank, int *lane_of) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  rank[i] = __popcll(b & __lanemask_lt());
// CHECK:  rank[i] = __popcll(b & __pk_lanemask_lt());
  lane_of[i] = __lane_id();
// CHECK:  lane_of[i] = __pk_lane_id();
}
