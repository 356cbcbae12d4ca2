// PK9100: one input that does not parse does not cost the rest of the tree.
// Every file that parses is ported and written (atomically, as always); each
// one that does not is reported with clang's file:line:col reasons and a
// PK9100 note, gets no output, and the run exits 4 and says so in its
// summary.  --strict keeps all or nothing: exit 2, nothing written.
//
// RUN: rm -rf %t && split-file %s %t
// RUN: sh -c '%pk port --to hip -o %t/o --report %t/r.json %t/src 2>%t/err; echo exit $? >> %t/err'
// RUN: FileCheck %s --check-prefix=PARTIAL < %t/err
// PARTIAL: {{.*}}src/bad.cu: error: cannot parse as CUDA{{.*}} [PK9001]
// PARTIAL-NEXT: {{.*}}src/bad.cu:5:{{[0-9]+}}: error: use of undeclared identifier 'scale_factor'
// PARTIAL-NEXT: {{.*}}src/bad.cu: note: not ported; the other inputs are (--strict: all or nothing) [PK9100]
// PARTIAL: port-kernel: hip: 2 files, {{.*}}
// PARTIAL-NEXT: port-kernel: 1 input file not ported (see the errors above): {{.*}}src/bad.cu; every other file was written [PK9100]
// PARTIAL-NEXT: exit 4
// RUN: ls %t/o/hip | FileCheck %s --check-prefix=FILES
// FILES: good.hip
// FILES-NEXT: util.hpp
// RUN: FileCheck %s --check-prefix=REPORT < %t/r.json
// REPORT: "not_ported": [
// REPORT: "input": "{{.*}}src/bad.cu",
// REPORT-NEXT: "reason": "{{.*}}bad.cu:5:{{[0-9]+}}: error: use of undeclared identifier 'scale_factor'",
// REPORT-NEXT: "rule": "PK9100"
//
// --strict: all or nothing.
// RUN: not %pk port -q --strict --to hip -o %t/s %t/src 2>&1 | FileCheck %s --check-prefix=STRICT
// RUN: not ls %t/s
// STRICT: {{.*}}src/bad.cu:5:{{[0-9]+}}: error: use of undeclared identifier 'scale_factor'
// STRICT: port-kernel: no output written
//
// When no input parses, nothing is written and the run is an input error.
// RUN: not %pk port -q --to hip -o %t/n %t/src/bad.cu 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: not ls %t/n
// NONE: port-kernel: no output written
//
// check: the files that parse are checked; the run is an input error (2).
// RUN: sh -c '%pk check --to hip %t/src 2>%t/cerr; echo exit $? >> %t/cerr'
// RUN: FileCheck %s --check-prefix=CHECK < %t/cerr
// CHECK: {{.*}}src/bad.cu: note: not checked [PK9100]
// CHECK: port-kernel: {{[0-9]+}} finding(s); 1 input file(s) not checked [PK9100]
// CHECK-NEXT: exit 2

//--- src/good.cu
#include "util.cuh"
__global__ void scale(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = twice(x[i]);
}
//--- src/util.cuh
#pragma once
__device__ inline float twice(float v) { return 2.f * v; }
//--- src/bad.cu
#include "util.cuh"
__global__ void partial(float *out) {
  __shared__ float tile[32];
  tile[threadIdx.x % 32] = 1.f;
  out[0] = tile[0] * scale_factor;
}
