// PK5006: accesses that are not a tile of the thread index space: a lane
// number, an offset neighbour, a 2-D pitch that is not a global coordinate.
// RUN: rm -rf %t && %pk port -q --to nki -o %t %s 2>&1 | FileCheck %s
#include <cuda_runtime.h>

__global__ void per_lane(const float *in, float *out) {
// CHECK: PK5006.cu:[[@LINE+1]]:13: warning: kernel 'per_lane' is not lifted to NKI: 'lane' is not an affine function of the global thread coordinates [PK5006]
  const int lane = threadIdx.x & 31;
  out[lane] = in[lane];
}

__global__ void shift_left(const float *in, float *out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
// CHECK: PK5006.cu:[[@LINE+1]]:14: warning: kernel 'shift_left' is not lifted to NKI: 'in' is accessed at an offset (1) from the thread's element; only aligned tiles are lifted [PK5006]
    out[i] = in[i + 1];
}
// CHECK-NOT: warning
