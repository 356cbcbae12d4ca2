// PK9002: two rules that change overlapping source text in different ways
// are an error naming both edits; nothing is written.  Here the shared header
// Inputs/PK9002/warp_reduce.cuh gets logical 32-lane warps from this file
// (pk_warpSize) and native warps from block_total.cu (pk_waveSize); and a
// user rename table (--rules) maps warpSize, which PK2004 rewrites too.
//
// RUN: rm -rf %t
// RUN: not %pk port -q --to hip -o %t/o %s %S/Inputs/PK9002/block_total.cu 2>&1 \
// RUN:   | FileCheck %s --check-prefix=HEADER
// RUN: not ls %t/o
// HEADER: warp_reduce.cuh:6:21: error: conflicting edits [PK9002]: [PK2004] replaces 8 bytes with 'pk_waveSize' but [PK2004] already replaces 8 bytes at 6:21 with 'pk_warpSize'
// HEADER-NEXT: port-kernel: no output written
//
// Each file on its own ports without a conflict.
// RUN: %pk port -q --to hip -o %t/a %s 2>&1 | FileCheck %s --check-prefix=ALONE --allow-empty
// RUN: %pk port -q --to hip -o %t/b %S/Inputs/PK9002/block_total.cu 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ALONE --allow-empty
// ALONE-NOT: error
// ALONE-NOT: [PK9002]
//
// RUN: not %pk port -q --to hip --rules %S/Inputs/PK9002/rename.yaml -o %t/u %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DIAG
// RUN: not ls %t/u
// Nested rewrites compose: a removed argument takes the rewrites inside it
// along, for either warp strategy.
// RUN: %pk port -q --to hip --wave64=logical32 -o %t/n32 %S/Inputs/PK9002/nested.cu 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ALONE --allow-empty
// RUN: FileCheck %s --check-prefix=NESTED32 --input-file=%t/n32/hip/nested.hip
// NESTED32: unsigned b = __pk_ballot32(v > 0);
// NESTED32: int any = __pk_any32(v < 0);
// NESTED32: float s = __shfl_xor((float)v, 1, 32);
// RUN: %pk port -q --to hip --wave64=native -o %t/n64 %S/Inputs/PK9002/nested.cu 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ALONE --allow-empty
// RUN: FileCheck %s --check-prefix=NESTED64 --input-file=%t/n64/hip/nested.hip
// NESTED64: unsigned long long b = __ballot(v > 0);
// NESTED64: int any = __any(v < 0);
#include <cuda_runtime.h>
#include "Inputs/PK9002/warp_reduce.cuh"

// One partial sum per 32-lane warp: needs logical 32-lane warps.
__global__ void warp_partials(const float *in, float *partials, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float v = warp_sum(i < n ? in[i] : 0.f);
// DIAG: PK9002.cu:[[@LINE+1]]:34: error: conflicting edits [PK9002]: [PK2004] replaces 8 bytes with 'pk_warpSize' but [PK8001] already replaces 8 bytes at [[@LINE+1]]:34 with 'kWarpWidth'
  const int lane = threadIdx.x % warpSize;
  if (lane == 0)
    partials[i / 32] = v;
}
// DIAG-NEXT: port-kernel: no output written
