// PK1012: nvcc includes cuda_runtime.h in every .cu file, so most programs
// never include it; a HIP output that uses kernels, built-in variables,
// launches or the HIP API gets <hip/hip_runtime.h> before any other HIP
// header (hip_cooperative_groups.h needs it first).  A file whose first
// HIP-related include is already the runtime is left alone.  ({{hip}} in the expected lines keeps them
// from reading as HIP includes, which would make this file HIP input.)
// RUN: rm -rf %t && %pk port -q --to hip --report %t/r.json -o %t %s \
// RUN:   %S/Inputs/PK1012/guarded.cuh %S/Inputs/PK1012/runtime_first.cu \
// RUN:   %S/Inputs/PK1012/runtime_late.cu 2>&1 | count 0
// RUN: FileCheck %s --match-full-lines --input-file=%t/hip/PK1012.hip
// RUN: FileCheck %s --match-full-lines --check-prefix=GUARD \
// RUN:   --input-file=%t/hip/Inputs/PK1012/guarded.hpp
// RUN: FileCheck %s --match-full-lines --check-prefix=FIRST \
// RUN:   --input-file=%t/hip/Inputs/PK1012/runtime_first.hip
// RUN: FileCheck %s --match-full-lines --check-prefix=LATE \
// RUN:   --input-file=%t/hip/Inputs/PK1012/runtime_late.hip
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t/r.json
// REPORT: "PK1012": 3
// REPORT: "rule": "PK1012",
// REPORT-NEXT: "why": "nvcc includes cuda_runtime.h implicitly; HIP compilers need <{{hip}}/hip_runtime.h> before any other HIP header"
//
// The first include of this file: the runtime goes in front of it.
// CHECK: #include <{{hip}}/hip_runtime.h>
// CHECK-NEXT: #include <cstdio>
#include <cstdio>
#include <cooperative_groups.h>
// CHECK: #include <{{hip}}/hip_cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void scale(float *x, float s) {
  x[blockIdx.x * blockDim.x + threadIdx.x] *= s;
}

int main() {
  float *d;
  cudaMalloc(&d, 256 * sizeof(float));
  scale<<<1, 256>>>(d, 2.f);
  return cudaDeviceSynchronize() != cudaSuccess;
}

// A header: after its guard, before its first include.
// GUARD:      #define PK1012_GUARDED_CUH
// GUARD-NEXT: #include <{{hip}}/hip_runtime.h>
// GUARD-NEXT: #include <{{hip}}/hip_fp16.h>
//
// The runtime first: nothing added.
// FIRST-NOT: hip_runtime.h
// FIRST: #include <{{hip}}/hip_runtime.h>
// FIRST-NOT: hip_runtime.h
//
// The runtime after cooperative groups: the runtime goes before them too.
// LATE:      #include <{{hip}}/hip_runtime.h>
// LATE-NEXT: #include <{{hip}}/hip_cooperative_groups.h>
// LATE-NEXT: #include <{{hip}}/hip_runtime.h>
