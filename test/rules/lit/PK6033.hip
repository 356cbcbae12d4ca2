// PK6033: code written for 64-lane waves is narrowed to 32-lane warps: lane
// and wave arithmetic, per-wave shared slots, the last lane, shuffle loops,
// the unrolled offset-32 step and WARP_SIZE.  Code with warpSize is not
// touched.
// RUN: rm -rf %t && %pk port -q --to cuda --report %t/r.json -o %t %s 2>&1 | count 0
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t/r.json
// REPORT: "rule": "PK6033"
// RUN: FileCheck %s --match-full-lines --input-file=%t/cuda/PK6033.cu
// RUN: grep -v RUN: %t/cuda/PK6033.cu | not grep "__shfl_down_sync(0xffffffffu, v, 32)"
#include <hip/hip_runtime.h>

#define WARP_SIZE 64
// CHECK: #define WARP_SIZE 32
#define WAVES_PER_BLOCK (256 / 64)
// CHECK: #define WAVES_PER_BLOCK (256 / 32)

__device__ float wave_sum(float v) {
  v += __shfl_down(v, 32, 64);
  v += __shfl_down(v, 16, 64);
// CHECK:  v += __shfl_down_sync(0xffffffffu, v, 16);
  v += __shfl_down(v, 8, 64);
  v += __shfl_down(v, 4, 64);
  v += __shfl_down(v, 2, 64);
  v += __shfl_down(v, 1, 64);
  return v;
}

__global__ void scan_totals(const int *in, int *out, float *sums) {
  __shared__ int totals[64];
// CHECK:  __shared__ int totals[32];
  __shared__ float part[WAVES_PER_BLOCK];
  const int lane = threadIdx.x & 63;
// CHECK:  const int lane = threadIdx.x & 31;
  const int wave = threadIdx.x >> 6;
// CHECK:  const int wave = threadIdx.x >> 5;
  const int waves = blockDim.x / 64;
// CHECK:  const int waves = blockDim.x / 32;
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int d = 1; d < 64; d <<= 1) {
// CHECK:  for (int d = 1; d < 32; d <<= 1) {
    const int t = __shfl_up(v, d, 64);
// CHECK:    const int t = __shfl_up_sync(0xffffffffu, v, d);
    if (lane >= d)
      v += t;
  }
  if (lane == 63)
// CHECK:  if (lane == 31)
    totals[wave] = v;
  int m = v;
  for (int o = 32; o > 0; o >>= 1)
// CHECK:  for (int o = 16; o > 0; o >>= 1)
    m = max(m, __shfl_xor(m, o, 64));
// CHECK:    m = max(m, __shfl_xor_sync(0xffffffffu, m, o));
  float s = wave_sum((float)v);
  if (lane == 0)
    part[wave] = s;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] =
      v + (wave > 0 ? totals[wave - 1] : 0) + m + waves;
  if (threadIdx.x == 0)
    sums[blockIdx.x] = part[0];
}

__device__ int generic_lane() { return threadIdx.x % warpSize; }
// CHECK: __device__ int generic_lane() { return threadIdx.x % warpSize; }
