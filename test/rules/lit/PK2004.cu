// PK2004: every use of warpSize in device code becomes a constexpr generated
// into the output: pk_warpSize (32) where the kernel keeps logical 32-lane
// warps, pk_waveSize (64) where it goes native; a use in a macro body gets
// the strategy of the kernels that expand the macro.  Member accesses such as
// prop.warpSize are left alone (PK2011).
// RUN: rm -rf %t && %pk port -q --to hip --report %t/r.json -o %t %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DIAG
// RUN: FileCheck %s --match-full-lines --input-file=%t/hip/PK2004.hip
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t/r.json
// REPORT:      "counts": {
// REPORT:        "PK2004": 7
#include <cuda_runtime.h>
// CHECK: static constexpr int pk_warpSize = 32;
// CHECK: static constexpr int pk_waveSize = 64;

#define LANE() (threadIdx.x % warpSize)
// CHECK: #define LANE() (threadIdx.x % pk_warpSize)
// REPORT:      "line": [[@LINE-2]],
// REPORT-NEXT: "offset": {{[0-9]+}},
// REPORT-NEXT: "replacement": "pk_warpSize",
// REPORT-NEXT: "rule": "PK2004",
// REPORT-NEXT: "why": "warpSize is 64 on CDNA and not a constant expression from ROCm 7; the logical warp width is the constant 32"

__device__ float warp_sum(float v) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
// CHECK:  for (int offset = pk_warpSize / 2; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffff, v, offset);
  return v;
}

// One row per warp: needs logical 32-lane warps.
// DIAG: PK2004.cu:[[@LINE+1]]:1: note: kernel row_sums: logical 32-lane warps inside 64-lane waves because 'row >= rows' depends on the 32-lane warp numbering (line [[#@LINE+6]]) [PK2000]
__global__ void row_sums(const float *x, float *out, int rows, int cols) {
  const int warp = threadIdx.x / warpSize;
// CHECK:  const int warp = threadIdx.x / pk_warpSize;
  const int row = blockIdx.x * (blockDim.x / warpSize) + warp;
// CHECK:  const int row = blockIdx.x * (blockDim.x / pk_warpSize) + warp;
  if (row >= rows)
    return;
  float s = 0.f;
  for (int c = LANE(); c < cols; c += warpSize)
// CHECK:  for (int c = LANE(); c < cols; c += pk_warpSize)
    s += x[row * cols + c];
  s = warp_sum(s);
  if (LANE() == 0)
    out[row] = s;
}

// Whole-block total: native 64-lane warps are safe.
// DIAG: PK2004.cu:[[@LINE+1]]:1: note: kernel total: native 64-lane warps (its warp code does not depend on the data layout of 32-lane warps) [PK2000]
__global__ void total(const float *x, float *out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? x[i] : 0.f;
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
// CHECK:  for (int offset = pk_waveSize / 2; offset > 0; offset /= 2)
// REPORT:      "line": [[@LINE-2]],
// REPORT-NEXT: "offset": {{[0-9]+}},
// REPORT-NEXT: "replacement": "pk_waveSize",
// REPORT-NEXT: "rule": "PK2004",
// REPORT-NEXT: "why": "warpSize is not a constant expression from ROCm 7; the native warp width is the constant 64"
    v += __shfl_xor_sync(0xffffffff, v, offset);
  if (threadIdx.x % warpSize == 0)
// CHECK:  if (threadIdx.x % pk_waveSize == 0)
    atomicAdd(out, v);
}

void launch(const float *x, float *out, int n, const cudaDeviceProp &prop) {
  total<<<(n + 255) / 256, 256>>>(x, out, n);
// DIAG: PK2004.cu:[[@LINE+1]]:14: warning: {{.*}} [PK2011]
  (void)prop.warpSize;
// CHECK:  (void)prop.warpSize;
}
// DIAG-NOT: warning
