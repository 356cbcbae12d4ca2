// PK9003: code nested deeper than the wave-64 analysis follows (1000 levels)
// is reported, not analysed: a warning at the line where it starts, and the
// kernel keeps logical 32-lane warps (the strategy that preserves meaning
// without knowing what the code computes).  A warp collective inside such
// code is an error naming it: its rewrite is not checked (port exits 3).
// T11 below is a sum of 2048 terms: a chain of 2047 nested '+'.
// RUN: rm -rf %t && %pk port --cuda-path=none -q --to hip -o %t %s 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: find %t -name PK9003.hip -exec cat {} + | FileCheck %s --match-full-lines
// RUN: not %pk check --cuda-path=none --to hip %s 2>&1 | FileCheck %s --check-prefix=CHECKCMD
// RUN: sed -e 's/float s = T11;/float s = __shfl_down_sync(0xffffffff, a[i], 16) + T11;/' %s > %t.inside.cu
// RUN: not %pk port --cuda-path=none -q --to hip -o %t.inside %t.inside.cu 2>&1 | FileCheck %s --check-prefix=INSIDE
#include <cuda_runtime.h>

#define T0 a[i]
#define T1 T0 + T0
#define T2 T1 + T1
#define T3 T2 + T2
#define T4 T3 + T3
#define T5 T4 + T4
#define T6 T5 + T5
#define T7 T6 + T6
#define T8 T7 + T7
#define T9 T8 + T8
#define T10 T9 + T9
#define T11 T10 + T10

// DIAG: PK9003.cu:[[@LINE+3]]:1: note: kernel wide_sum: logical 32-lane warps inside 64-lane waves because code nested more than 1000 levels deep is too deep to analyse (line [[@LINE+8]]) [PK2000]
// CHECK: // port-kernel: note: kernel wide_sum: logical 32-lane warps inside 64-lane waves because code nested more than 1000 levels deep is too deep to analyse (line {{[0-9]+}}) [PK2000]
// CHECK-NEXT: __global__ void wide_sum(const float *a, float *out, int i) {
__global__ void wide_sum(const float *a, float *out, int i) {
// DIAG-NEXT: PK9003.cu:[[@LINE+4]]:13: warning: code nested more than 1000 levels deep is too deep to analyse; wave-64 hazards in it are not checked and 'wide_sum' keeps logical 32-lane warps [PK9003]
// CHECKCMD: PK9003.cu:[[@LINE+3]]:13: warning: code nested more than 1000 levels deep is too deep to analyse; wave-64 hazards in it are not checked and 'wide_sum' keeps logical 32-lane warps [PK9003]
// INSIDE: inside.cu:[[@LINE+2]]:13: error: code nested more than 1000 levels deep is too deep to analyse; wave-64 hazards in it are not checked and 'wide_sum' keeps logical 32-lane warps; it calls __shfl_down_sync (line [[@LINE+2]]), whose port is not checked: split the expression [PK9003]
// CHECK: // port-kernel: warning: code nested more than 1000 levels deep is too deep to analyse; wave-64 hazards in it are not checked and 'wide_sum' keeps logical 32-lane warps [PK9003]
  float s = T11;
// The shuffle outside the deep sum is analysed and rewritten as usual.
// CHECK: s += __shfl_down(s, 16, 32);
  s += __shfl_down_sync(0xffffffff, s, 16);
  if ((threadIdx.x & 31) == 0)
    out[threadIdx.x / 32] = s;
}
