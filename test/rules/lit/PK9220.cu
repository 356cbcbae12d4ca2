// PK9220: `check --validate` also validates, on the emulator, the case the
// checked files belong to.  A port whose results disagree with the case's
// reference is an error finding at the case's kernel, per target, with the
// largest error, and check exits 1.  Here the reference assumes 32-lane
// warps and the HIP port is forced onto native 64-lane warps (--wave64
// native; the default strategy would keep 32-lane logical warps for this
// kernel): the CUDA port (32 lanes) passes, the HIP port (warpSize 64) does
// not, and only it is reported.
//
// RUN: rm -rf %t && split-file %s %t
// RUN: not %pk check --validate --wave64 native --to hip,cuda --format json --src-root %t %t/lanes > %t/r.json 2> %t/err
// RUN: FileCheck %s --check-prefix=JSON < %t/r.json
// JSON:      "col": 17,
// JSON-NEXT: "file": "lanes/lanes.cu",
// JSON-NEXT: "fingerprint": "{{[0-9a-f]+}}",
// JSON-NEXT: "line": 3,
// JSON-NEXT: "message": "kernel warp_width (case lanes) fails validation as hip: mismatch: out[0] = 64 (want 32); 64 of 64 differ; largest error: {{.*}} absolute, {{.*}} relative",
// JSON-NEXT: "rule": "PK9220",
// JSON-NEXT: "severity": "error",
// JSON-NEXT: "target": "hip"
// RUN: not grep -q 'fails validation as cuda' %t/r.json
// RUN: not grep -q PK9221 %t/r.json
// RUN: FileCheck %s --check-prefix=SUM < %t/err
// SUM: validation: 1 case(s), 2 of 3 run(s) passed
//
// Text: the finding on stderr, clang style; the summary counts the runs.
// RUN: not %pk check --validate --wave64 native --to hip %t/lanes/lanes.cu 2>&1 | FileCheck %s --check-prefix=TEXT
// TEXT: {{.*}}lanes/lanes.cu:3:17: error: kernel warp_width (case lanes) fails validation as hip: mismatch: {{.*}} [PK9220]
// TEXT: port-kernel: {{[0-9]+}} finding(s); validation: 1 case(s), 1 of 2 run(s) passed

//--- lanes/case.yaml
name: lanes
description: Each thread writes its warp's width; the reference assumes 32-lane warps.
source: lanes.cu
entry: warp_width
reference: warp_width_ref
grid: [1, 1, 1]
block: [64, 1, 1]
shared_bytes: 0
args:
  - { name: out, type: int, count: 64, init: zero, output: true }
tolerance: { abs: 0.0, rel: 0.0 }
//--- lanes/lanes.cu
#include <cuda_runtime.h>

__global__ void warp_width(int *out) { out[threadIdx.x] = warpSize; }
//--- lanes/ref.cpp
void warp_width_ref(int *out) {
  for (int i = 0; i < 64; ++i)
    out[i] = 32;
}
