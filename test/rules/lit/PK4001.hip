// PK4001: from HIP input, the mask-less warp intrinsics __shfl, __shfl_up,
// __shfl_down, __shfl_xor, __any, __all and __ballot become CUDA's *_sync
// forms with the full 32-lane mask 0xffffffffu inserted as the first
// argument; widths and other arguments stay as written, in macros too.
// RUN: rm -rf %t && %pk port -q --to cuda --report %t/r.json -o %t %s 2>&1 \
// RUN:   | count 0
// RUN: FileCheck %s --match-full-lines --input-file=%t/cuda/PK4001.cu
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t/r.json
// REPORT:      "counts": {
// REPORT:        "PK4001": 7
#include <hip/hip_runtime.h>

#define SHFL_XOR(v, m) __shfl_xor(v, m, 32)
// CHECK: #define SHFL_XOR(v, m) __shfl_xor_sync(0xffffffffu, v, m, 32)
// REPORT:      "line": [[@LINE-2]],
// REPORT-NEXT: "offset": {{[0-9]+}},
// REPORT-NEXT: "replacement": "__shfl_xor_sync(0xffffffffu, ",
// REPORT-NEXT: "rule": "PK4001",
// REPORT-NEXT: "why": "__shfl_xor -> __shfl_xor_sync with the full 32-lane mask (the non-sync forms are gone from CUDA 9 on for sm_70+)"

__device__ float half_wave_max(float v) {
  for (int m = 16; m > 0; m >>= 1)
    v = fmaxf(v, SHFL_XOR(v, m));
// CHECK:    v = fmaxf(v, SHFL_XOR(v, m));
  return __shfl(v, 0, 32);
// CHECK:  return __shfl_sync(0xffffffffu, v, 0, 32);
}

template <typename T>
__device__ T scan_step(T x, int lane) {
  for (int o = 1; o < 32; o <<= 1) {
    T y = __shfl_up(x, o, 32);
// CHECK:    T y = __shfl_up_sync(0xffffffffu, x, o, 32);
    if (lane >= o) x += y;
  }
  return x;
}

__global__ void stats(const float *in, float *out, int *flags) {
  const int lane = threadIdx.x % 32;
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  float s = v;
  for (int o = 16; o > 0; o /= 2)
    s += __shfl_down(s, o, 32);
// CHECK:    s += __shfl_down_sync(0xffffffffu, s, o, 32);
  const bool any_neg = __any(v < 0.f);
// CHECK:  const bool any_neg = __any_sync(0xffffffffu, v < 0.f);
  const bool all_fin = __all(isfinite(v));
// CHECK:  const bool all_fin = __all_sync(0xffffffffu, isfinite(v));
  const float first = __shfl(v, 0);
// CHECK:  const float first = __shfl_sync(0xffffffffu, v, 0);
  float mx = half_wave_max(v);
  int c = scan_step<int>(v > 0.f, lane);
  if (lane == 0) {
    out[threadIdx.x / 32] = s + mx + first;
    flags[threadIdx.x / 32] = any_neg + 2 * all_fin + 4 * c;
  }
}
