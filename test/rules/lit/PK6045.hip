// PK6045: HIP warp collectives whose constant operands need a 64-lane wave
// and that PK6032/PK6033 did not narrow are reported where they are written.
// Operands written with warpSize, and what PK6033 narrows, are not.
// RUN: rm -rf %t && %pk port -q --to cuda -o %t %s 2>&1 | FileCheck %s --implicit-check-not='[PK6045]'
// check --to cuda reports the same findings (exit 1: findings).
// RUN: not %pk check --to cuda %s 2>&1 | FileCheck %s --implicit-check-not='[PK6045]'
#include <hip/hip_runtime.h>

#define XOR_HALF(v) __shfl_xor((v), 32)
#define SHFL_WIDE(v, o) __shfl_down((v), (o), 64)
#define WAVE_BALLOT_ALL(p) (__popcll(__ballot(p)) == 64)

// A kernel that is not otherwise written for 64-lane waves: nothing in it is
// narrowed, so each wave-64 operand is reported.
__global__ void halves(const float *x, float *y, int *flags) {
  float v = x[threadIdx.x];
  float a = __shfl_xor(v, 32);
// CHECK: PK6045.hip:[[@LINE-1]]:27: warning: a shuffle lane offset of 32 reaches into lanes 32-63 of a 64-lane wave: on a 32-lane warp it wraps to lane 0 (or reads the lane itself) [PK6045]
  float b = __shfl(v, 40);
// CHECK: PK6045.hip:[[@LINE-1]]:23: warning: a shuffle source lane of 40 reaches into lanes 32-63 of a 64-lane wave: on a 32-lane warp it wraps to lane 8 (or reads the lane itself) [PK6045]
  float c = XOR_HALF(v);
// CHECK: PK6045.hip:[[@LINE-1]]:13: warning: a shuffle lane offset of 32 {{.*}} [PK6045]
  float d = SHFL_WIDE(v, 1);
// CHECK: PK6045.hip:[[@LINE-1]]:13: warning: a shuffle width of 64 lanes needs a 64-lane wave and is not narrowed here: CUDA leaves widths above 32 undefined [PK6045]
  for (int o = 32; o > 0; o >>= 1)
// CHECK: PK6045.hip:[[@LINE-1]]:16: warning: the lane offset loop starts at 32: lanes 32-63 of a 64-lane wave, which a 32-lane warp does not have [PK6045]
    v += __shfl_down(v, o);
  float s = v;
  for (int d = 1; d < 64; d <<= 1)
// CHECK: PK6045.hip:[[@LINE-1]]:23: warning: the lane offset loop runs to 64: lanes 32-63 of a 64-lane wave, which a 32-lane warp does not have [PK6045]
    s += __shfl_up(s, d);
  unsigned long long m = __ballot(v > 0.f);
  flags[0] = (m & 0xffffffff00000000ull) != 0;
// CHECK: PK6045.hip:[[@LINE-1]]:19: warning: a ballot combined with 0xffffffff00000000 uses lanes 32-63 of a 64-lane wave: a CUDA warp has no such lanes (they are 0) [PK6045]
  flags[1] = (int)(m >> 40);
// CHECK: PK6045.hip:[[@LINE-1]]:25: warning: a ballot shifted by 40 reads lanes 32-63 of a 64-lane wave: a CUDA warp has no such lanes (they are 0) [PK6045]
  flags[2] = WAVE_BALLOT_ALL(v > 1.f);
// CHECK: PK6045.hip:[[@LINE-1]]:14: warning: a ballot or its count compared with 64 assumes a 64-lane wave: a CUDA warp has 32 lanes [PK6045]
  y[threadIdx.x] = a + b + c + d + v + s;
}

enum { kWarpSize = 64, kMaxWarps = 1024 / kWarpSize };
// CHECK: PK6045.hip:[[@LINE-1]]:20: warning: 'kWarpSize' holds the 64 lanes of a wave: lane and wave arithmetic with it is not narrowed to 32-lane warps [PK6045]

__global__ void wave_constant(const int *in, int *out) {
  constexpr int kWaveSize = 64;
// CHECK: PK6045.hip:[[@LINE-1]]:29: warning: 'kWaveSize' holds the 64 lanes of a wave: lane and wave arithmetic with it is not narrowed to 32-lane warps [PK6045]
  out[threadIdx.x] = in[threadIdx.x % kWaveSize] + kMaxWarps;
}

// Not reported: operands written with warpSize (warpSize / 2 is half of a
// CUDA warp too), widths of 32 and below, offsets below 32, run-time values.
__global__ void scale_free(const float *x, float *y, int o) {
  float v = x[threadIdx.x];
  for (int i = warpSize / 2; i > 0; i >>= 1)
    v += __shfl_xor(v, i);
  v += __shfl_xor(v, 40, 16) + __shfl(v, warpSize - 1) + __shfl_down(v, o);
  y[threadIdx.x] = v + __shfl_xor(v, 16) + __shfl_up(v, 1, 32);
}

// Narrowed by PK6033 (the function is written for 64-lane waves): nothing to
// report.
__global__ void wave64_sum(const float *x, float *y) {
  const int lane = threadIdx.x & 63;
  float v = x[threadIdx.x];
  for (int o = 32; o > 0; o >>= 1)
    v += __shfl_down(v, o, 64);
  if (lane == 0)
    y[threadIdx.x >> 6] = v;
}
