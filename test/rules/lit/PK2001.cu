// PK2001: with logical 32-lane warps, *_sync shuffles lose their mask and
// keep an explicit width of 32 (or the one written), so each half of a
// 64-lane wave shuffles within itself as a CUDA warp does.
// RUN: rm -rf %t && %pk port -q --to hip --wave64=logical32 --report %t.json -o %t %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DIAG
// RUN: FileCheck %s --match-full-lines --input-file=%t/hip/PK2001.hip
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t.json
// REPORT: "replacement": "__shfl_xor",
// REPORT-NEXT: "rule": "PK2001",

// DIAG: PK2001.cu:[[@LINE+1]]:1: note: kernel warpSum: logical 32-lane warps inside 64-lane waves (--wave64=logical32) [PK2000]
__global__ void warpSum(const float *in, float *out) {
  float v = in[threadIdx.x];
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_xor_sync(0xffffffff, v, o);
// CHECK:    v += __shfl_xor(v, o, 32);
  v += __shfl_down_sync(0xffffffffu, v, 1, 16);
// CHECK:  v += __shfl_down(v, 1, 16);
  if (threadIdx.x % 32 == 0)
    out[threadIdx.x / 32] = v;
}
// DIAG-NOT: warning
