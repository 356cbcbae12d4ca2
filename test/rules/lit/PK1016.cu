// PK1016: bfloat16 follows --rocm-version.  ROCm 6 (the default):
// __hip_bfloat16 of <hip/hip_bf16.h>, which converts like CUDA's type and
// has its intrinsics.  ROCm 5: hip_bfloat16 of <hip/hip_bfloat16.h>, whose
// float constructor is explicit: the conversions CUDA makes implicitly are
// written out, and the intrinsics become conversions.  Each output that
// depends on the choice carries a note.  Other versions are a usage error.
// RUN: rm -rf %t && %pk port -q --to hip --report %t/r6.json -o %t/six %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DIAG6
// RUN: FileCheck %s --match-full-lines --check-prefix=SIX --input-file=%t/six/hip/PK1016.hip
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t/r6.json
// RUN: %pk port -q --to hip --rocm-version=5 -o %t/five %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DIAG5
// RUN: FileCheck %s --match-full-lines --check-prefix=FIVE --input-file=%t/five/hip/PK1016.hip
// RUN: not %pk port -q --to hip --rocm-version=7 -o %t/bad %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BAD
// RUN: not ls %t/bad
// BAD: --rocm-version must be 5 or 6 (got 7)
// `check` reports the dependence and, for ROCm 5, each conversion `port`
// writes out, as notes.
// RUN: %pk check --to hip --rocm-version=5 %s 2>&1 | FileCheck %s --check-prefix=CHECK5
// CHECK5: PK1016.cu:[[@LINE+14]]:39: note: this output depends on --rocm-version (here 5): the bfloat16 types, header and conversions of ROCm 5 [PK1016]
// CHECK5: PK1016.cu:[[@LINE+24]]:12: note: ROCm 5's hip_bfloat16 converts from arithmetic types only explicitly (CUDA's __nv_bfloat16 implicitly); `port` writes `hip_bfloat16(...)` around the value [PK1016]
// CHECK5: PK1016.cu:[[@LINE+26]]:23: note: ROCm 5's hip_bfloat16 {{.*}} [PK1016]
// CHECK5: port-kernel: 0 finding(s)
// REPORT: "replacement": "__hip_bfloat16",
// REPORT-NEXT: "rule": "PK1016",
// REPORT-NEXT: "why": "__nv_bfloat16 -> __hip_bfloat16 for ROCm 6 (--rocm-version; ROCm 5 spells it hip_bfloat16)"
#include <cuda_runtime.h>
#include <cuda_bf16.h>
// SIX: #include <{{hip}}/hip_bf16.h>
// FIVE: #include <{{hip}}/hip_bfloat16.h>

// DIAG6: PK1016.cu:[[@LINE+2]]:39: note: this output depends on --rocm-version (here 6): the bfloat16 types, header and conversions of ROCm 6 [PK1016]
// DIAG5: PK1016.cu:[[@LINE+1]]:39: note: this output depends on --rocm-version (here 5): the bfloat16 types, header and conversions of ROCm 5 [PK1016]
__global__ void scale(const float *x, __nv_bfloat16 *y, float s, int n) {
// SIX: __global__ void scale(const float *x, __hip_bfloat16 *y, float s, int n) {
// FIVE: __global__ void scale(const float *x, hip_bfloat16 *y, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    __nv_bfloat16 z = __float2bfloat16(x[i]);
// SIX: __hip_bfloat16 z = __float2bfloat16(x[i]);
// FIVE: hip_bfloat16 z = hip_bfloat16(x[i]);
    float v = __bfloat162float(z) * s;
// SIX: float v = __bfloat162float(z) * s;
// FIVE: float v = float(z) * s;
    y[i] = v / 2.f;
// SIX: y[i] = v / 2.f;
// FIVE: y[i] = hip_bfloat16(v / 2.f);
    __nv_bfloat16 w = 1.5f;
// SIX: __hip_bfloat16 w = 1.5f;
// FIVE: hip_bfloat16 w = hip_bfloat16(1.5f);
    y[i] = y[i] + w;
  }
}
// DIAG6-NOT: warning
// DIAG5-NOT: warning
// The paired conversions ROCm 6.3 lacks (__floats2bfloat162_rn,
// __float2bfloat162_rn) are spelled through those it has; ROCm 5 has no
// paired type: flagged.
// RUN: %pk port -q --to hip -o %t/p6 %S/Inputs/PK1016/paired.cu
// RUN: FileCheck %s --check-prefix=PAIRED6 --input-file=%t/p6/hip/paired.hip
// PAIRED6: out[i] = __float22bfloat162_rn(make_float2(a[i], a[i + n]));
// PAIRED6: out[i + n] = __bfloat162bfloat162(__float2bfloat16(a[i++]));
// PAIRED6: return __bfloat162bfloat162(__float2bfloat16(static_cast<float>(v)));
// RUN: %pk port -q --to hip --rocm-version=5 -o %t/p5 %S/Inputs/PK1016/paired.cu 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PAIRED5
// PAIRED5: paired.cu:9:18: warning: '__float2bfloat162_rn' has no HIP counterpart: HIP 5.2.3 has no paired bfloat16 type [PK1010]
// ROCm 5: conversions in templates that depend on the template's parameters
// are written out where the template is written; the output compiles against
// ROCm 5.2 (host and device side).
// RUN: %pk port -q --to hip --rocm-version=5 -o %t/t5 %S/Inputs/PK1016/template5.cu
// RUN: FileCheck %s --check-prefix=TEMPLATE5 --input-file=%t/t5/hip/template5.hip
// TEMPLATE5: template <typename T> __device__ hip_bfloat16 to_bf16(T v) { return hip_bfloat16(v * 2); }
// TEMPLATE5: template <typename T> __device__ void store(hip_bfloat16 *p, T v) { *p = hip_bfloat16(v); }
// RUN: %hip5 --offload-host-only %t/t5/hip/template5.hip
// RUN: %hip5 --offload-device-only %t/t5/hip/template5.hip
// RUN: %hip6 --offload-host-only %t/p6/hip/paired.hip
// RUN: %hip6 --offload-device-only %t/p6/hip/paired.hip
