// PK1014: CUDA's math_constants.h has no HIP counterpart before ROCm 6; the
// #include becomes the definitions of its CUDART_* constants (the bit
// patterns as compiler builtins), so the output compiles with any ROCm.
// RUN: rm -rf %t && %pk port -q --to hip --report %t/r.json -o %t %s 2>&1 \
// RUN:   | count 0
// RUN: FileCheck %s --match-full-lines --input-file=%t/hip/PK1014.hip
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t/r.json
// `check` reports the rewrite as a note (text, JSON and SARIF); notes do
// not fail the check.
// RUN: %pk check --to hip %s 2>&1 | FileCheck %s --check-prefix=CHECKMODE
// CHECKMODE: PK1014.cu:{{[0-9]+}}:1: note: <math_constants.h> has no HIP counterpart before ROCm 6: its constants are defined in place (`port` rewrites this) [PK1014]
// CHECKMODE: port-kernel: 0 finding(s)
// RUN: %pk check -q --to hip --format json %s | FileCheck %s --check-prefix=JSON
// JSON: "line": {{[0-9]+}},
// JSON-NEXT: "message": "<math_constants.h> has no HIP counterpart before ROCm 6: its constants are defined in place (`port` rewrites this)",
// JSON-NEXT: "rule": "PK1014",
// JSON-NEXT: "severity": "note",
// RUN: %pk check -q --to hip --format sarif %s | FileCheck %s --check-prefix=SARIF
// SARIF: "ruleId": "PK1014"
// REPORT: "rule": "PK1014",
// REPORT-NEXT: "why": "<math_constants.h> has no HIP counterpart before ROCm 6: its constants are defined in place"
#include <cuda_runtime.h>
#include <math_constants.h>
// CHECK-NOT: #include <math_constants.h>
// CHECK: // port-kernel: the constants of CUDA's math_constants.h [PK1014]
// CHECK-NEXT: #ifndef PK_MATH_CONSTANTS_H
// CHECK-NEXT: #define PK_MATH_CONSTANTS_H
// CHECK-NEXT: #define CUDART_INF_F __builtin_huge_valf()
// CHECK: #define CUDART_PI_F 3.141592654F
// CHECK: #define CUDART_INF __builtin_huge_val()
// CHECK: #endif // PK_MATH_CONSTANTS_H

__global__ void area(const float *r, float *a) {
  a[threadIdx.x] = CUDART_PI_F * r[threadIdx.x] * r[threadIdx.x];
// CHECK: a[threadIdx.x] = CUDART_PI_F * r[threadIdx.x] * r[threadIdx.x];
}

