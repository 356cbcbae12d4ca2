// Edits inside macro bodies never change what other expansions of the macro,
// or of the macros it uses, produce.  The mask of the barrier in
// WARP_BARRIER's body is the whole expansion of FULL: it is dropped where
// WARP_BARRIER names FULL, and FULL keeps its value for count_bits(FULL) in
// device and host code.  The same holds through a chain of macros, through
// a macro argument, and for each wave-64 strategy.
// RUN: rm -rf %t
// RUN: %pk port -q --to hip -o %t/auto %s 2>/dev/null
// RUN: FileCheck %s --match-full-lines --check-prefixes=CHECK,NAT --input-file=%t/auto/hip/macro-body-edits.hip
// RUN: FileCheck %s --check-prefix=NOSYNC --input-file=%t/auto/hip/macro-body-edits.hip
// RUN: %pk port -q --to hip --wave64=logical32 -o %t/l32 %s 2>/dev/null
// RUN: FileCheck %s --match-full-lines --check-prefixes=CHECK,L32 --input-file=%t/l32/hip/macro-body-edits.hip
// RUN: FileCheck %s --check-prefix=NOSYNC --input-file=%t/l32/hip/macro-body-edits.hip
// RUN: %pk port -q --to hip --wave64=native -o %t/nat %s 2>/dev/null
// RUN: FileCheck %s --match-full-lines --check-prefixes=CHECK,NAT --input-file=%t/nat/hip/macro-body-edits.hip
// RUN: FileCheck %s --check-prefix=NOSYNC --input-file=%t/nat/hip/macro-body-edits.hip
// No __syncwarp call is left in the code (comments aside):
// NOSYNC-NOT: {{^[^/]*__syncwarp\(}}
#include <cuda_runtime.h>

#define FULL 0xffffffffu
// CHECK: #define FULL 0xffffffffu
#define ALL_LANES FULL
// CHECK: #define ALL_LANES FULL
#define WARP_BARRIER() __syncwarp(FULL)
// CHECK: #define WARP_BARRIER() __pk_syncwarp()
#define INNER_BARRIER() __syncwarp(ALL_LANES)
// CHECK: #define INNER_BARRIER() __pk_syncwarp()
#define OUTER_BARRIER() INNER_BARRIER()
// CHECK: #define OUTER_BARRIER() INNER_BARRIER()
#define SYNC_WITH(m) __syncwarp(m)
// CHECK: #define SYNC_WITH(m) __pk_syncwarp(m)
#define BALLOT(p) __ballot_sync(FULL, p)
// L32: #define BALLOT(p) __pk_ballot32(p)
// NAT: #define BALLOT(p) __ballot(p)

__host__ __device__ int count_bits(unsigned m) {
  int n = 0;
  for (; m; m &= m - 1)
    ++n;
  return n;
}

__global__ void vote(const int *in, int *out) {
  const int v = in[threadIdx.x];
  WARP_BARRIER();
// CHECK: WARP_BARRIER();
  const unsigned b = BALLOT(v > 0);
  OUTER_BARRIER();
// CHECK: OUTER_BARRIER();
  SYNC_WITH(FULL);
// CHECK: SYNC_WITH();
  const float s = __shfl_xor_sync(FULL, (float)v, 1);
// L32: const float s = __shfl_xor((float)v, 1, 32);
// NAT: const float s = __shfl_xor((float)v, 1, 64);
  out[threadIdx.x] = count_bits(FULL) + count_bits(ALL_LANES) + count_bits(b) + (int)s;
// CHECK: out[threadIdx.x] = count_bits(FULL) + count_bits(ALL_LANES) + count_bits(b) + (int)s;
}

int lanes() { return count_bits(FULL); }
// CHECK: int lanes() { return count_bits(FULL); }
