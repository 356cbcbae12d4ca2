// PK4011: from HIP input, __ballot returns a 64-bit mask of a 64-lane wave
// while CUDA's __ballot_sync returns 32 bits for a 32-lane warp; each ballot
// is translated (PK4001) and flagged for review of code that uses the upper
// half (bits 32-63, __popcll over the whole wave).
// RUN: rm -rf %t && %pk port -q --to cuda -o %t %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DIAG
// RUN: FileCheck %s --match-full-lines --input-file=%t/cuda/PK4011.cu
#include <hip/hip_runtime.h>

// DIAG: PK4011.hip:[[@LINE+1]]:58: warning: HIP's __ballot returns 64 bits for a 64-lane wave; CUDA's __ballot_sync returns 32 bits for a 32-lane warp: check code that uses the upper half [PK4011]
__device__ int count_positive(float v) { return __popcll(__ballot(v > 0.f)); }
// CHECK: // port-kernel: warning: HIP's __ballot returns 64 bits for a 64-lane wave; CUDA's __ballot_sync returns 32 bits for a 32-lane warp: check code that uses the upper half [PK4011]
// CHECK-NEXT: __device__ int count_positive(float v) { return __popcll(__ballot_sync(0xffffffffu, v > 0.f)); }

__global__ void compact(const int *in, int *out, int *counts) {
  const int lane = threadIdx.x & 63;
  const int x = in[blockIdx.x * blockDim.x + threadIdx.x];
// DIAG: PK4011.hip:[[@LINE+1]]:29: warning: HIP's __ballot returns 64 bits for a 64-lane wave; CUDA's __ballot_sync returns 32 bits for a 32-lane warp: check code that uses the upper half [PK4011]
  unsigned long long mask = __ballot(x != 0);
// CHECK: // port-kernel: warning: HIP's __ballot returns 64 bits for a 64-lane wave; CUDA's __ballot_sync returns 32 bits for a 32-lane warp: check code that uses the upper half [PK4011]
// CHECK-NEXT:  unsigned long long mask = __ballot_sync(0xffffffffu, x != 0);
  const int below = __popcll(mask & ((1ull << lane) - 1));
  if (x != 0)
    out[blockIdx.x * blockDim.x + below] = x;
  const unsigned upper = (unsigned)(mask >> 32);
// CHECK:  const unsigned upper = (unsigned)(mask >> 32);
// DIAG: PK4011.hip:[[@LINE+1]]:34: warning: HIP's __ballot returns 64 bits for a 64-lane wave; CUDA's __ballot_sync returns 32 bits for a 32-lane warp: check code that uses the upper half [PK4011]
  const unsigned low = (unsigned)__ballot(x > 0);
// CHECK:  const unsigned low = (unsigned)__ballot_sync(0xffffffffu, x > 0);
  if (lane == 0)
    counts[blockIdx.x] = __popcll(mask) + __popc(upper) + __popc(low) + count_positive(x);
}
// DIAG-NOT: warning
