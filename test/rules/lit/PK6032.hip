// PK6032: a shuffle width of the whole 64-lane wave (64, warpSize) is CUDA's
// default width and is dropped; a width of 32 or less stays.
// RUN: rm -rf %t && %pk port -q --to cuda --report %t/r.json -o %t %s 2>&1 | count 0
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t/r.json
// REPORT: "rule": "PK6032"
// RUN: FileCheck %s --match-full-lines --input-file=%t/cuda/PK6032.cu
#include <hip/hip_runtime.h>

__global__ void sums(float *x) {
  float v = x[threadIdx.x];
  for (int o = warpSize / 2; o > 0; o /= 2)
    v += __shfl_xor(v, o, warpSize);
// CHECK:    v += __shfl_xor_sync(0xffffffffu, v, o);
  float w = __shfl_down(v, 1, 16);
// CHECK:  float w = __shfl_down_sync(0xffffffffu, v, 1, 16);
  float u = __shfl_up(v, 1, 32);
// CHECK:  float u = __shfl_up_sync(0xffffffffu, v, 1, 32);
  x[threadIdx.x] = v + w + u;
}
