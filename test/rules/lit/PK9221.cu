// PK9221: with `check --validate`, a case whose original kernel disagrees
// with the case's own reference cannot judge its ports: that is reported
// once, as target "original", at the kernel (an error: exit 1).  The port
// disagrees too and is reported under PK9220.
//
// RUN: rm -rf %t && split-file %s %t
// RUN: not %pk check -q --validate --to cuda --src-root %t %t/triple 2>&1 | FileCheck %s
// CHECK-DAG: {{.*}}triple/triple.cu:3:17: error: kernel triple (case triple): the original fails its reference, so the case cannot judge its ports: mismatch: y[1] = 3 (want 2); 31 of 32 differ; largest error: 3.1e+01 absolute, 5.0e-01 relative [PK9221]
// CHECK-DAG: {{.*}}triple/triple.cu:3:17: error: kernel triple (case triple) fails validation as cuda: mismatch: {{.*}} [PK9220]
// RUN: not %pk check -q --validate --to cuda --format json --src-root %t %t/triple | FileCheck %s --check-prefix=JSON
// JSON: "rule": "PK9221",
// JSON-NEXT: "severity": "error",
// JSON-NEXT: "target": "original"

//--- triple/case.yaml
name: triple
description: y = 3x, but the reference computes 2x.
source: triple.cu
entry: triple
reference: triple_ref
grid: [1, 1, 1]
block: [32, 1, 1]
shared_bytes: 0
args:
  - { name: y, type: float, count: 32, init: zero, output: true }
  - { name: x, type: float, count: 32, init: iota }
tolerance: { abs: 1.0e-6, rel: 1.0e-6 }
//--- triple/triple.cu
#include <cuda_runtime.h>

__global__ void triple(float *y, const float *x) { y[threadIdx.x] = 3.0f * x[threadIdx.x]; }
//--- triple/ref.cpp
void triple_ref(float *y, const float *x) {
  for (int i = 0; i < 32; ++i)
    y[i] = 2.0f * x[i];
}
