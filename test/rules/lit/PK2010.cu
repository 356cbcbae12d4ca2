// PK2010: HIP shuffles and votes have no participation mask; a *_sync call
// whose mask is not the constant full warp (0xffffffff) is translated with
// the mask dropped and flagged, since that is right only if exactly the
// named lanes reach the call.  Full masks, also through a macro or a
// constant, are not flagged.
// RUN: rm -rf %t && %pk port -q --to hip -o %t %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DIAG
// RUN: FileCheck %s --match-full-lines --input-file=%t/hip/PK2010.hip
#include <cuda_runtime.h>

#define FULL_MASK 0xffffffff

// Sum over the lanes that took the branch, using the active mask.
__global__ void partial_sums(const float *in, float *out, int n) {
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x & 31;
  if (gid < n) {
    const unsigned active = __activemask();
    float v = in[gid];
    for (int o = 16; o > 0; o >>= 1)
// DIAG: PK2010.cu:[[@LINE+1]]:29: warning: __shfl_down_sync: mask 'active' is not a constant; the HIP form has no mask, so this is correct only if the mask names exactly the lanes that reach the call [PK2010]
      v += __shfl_down_sync(active, v, o);
// CHECK: // port-kernel: warning: __shfl_down_sync: mask 'active' is not a constant; the HIP form has no mask, so this is correct only if the mask names exactly the lanes that reach the call [PK2010]
// CHECK-NEXT: v += __shfl_down(v, o, 32);
    const int leader = __ffs(active) - 1;
    if (lane == leader)
      out[gid / 32] = v;
  }
}

// The low half-warp broadcasts its first value; the full-warp votes are fine.
__global__ void halves(const int *in, int *out) {
  const int lane = threadIdx.x & 31;
  int x = in[threadIdx.x];
  if (lane < 16)
// DIAG: PK2010.cu:[[@LINE+1]]:21: warning: __shfl_sync: mask 0x0000ffff is not the full warp; the HIP form has no mask, so this is correct only if exactly these lanes reach the call [PK2010]
    x = __shfl_sync(0x0000ffff, x, 0, 16);
// CHECK: // port-kernel: warning: __shfl_sync: mask 0x0000ffff is not the full warp; the HIP form has no mask, so this is correct only if exactly these lanes reach the call [PK2010]
// CHECK-NEXT: x = __shfl(x, 0, 16);
  const unsigned mask = 0xffffffffu;
  const bool any = __any_sync(mask, x < 0);
// CHECK-NOT: {{^ *}}// port-kernel: warning
// CHECK:  const bool any = __pk_any32(x < 0);
  const unsigned b = __ballot_sync(FULL_MASK, x > 0);
// CHECK:  const unsigned b = __pk_ballot32(x > 0);
  out[threadIdx.x] = x + any + __popc(b);
}
// DIAG-NOT: [PK2010]
