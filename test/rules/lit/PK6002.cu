// PK6002: a mask-less warp intrinsic under a condition that only some lanes
// take gets the lanes of that condition: a constant when the condition
// depends on threadIdx.x alone and selects the same lanes in every warp that
// enters, else a ballot of the condition taken just before the if.
// RUN: rm -rf %t && %pk port -q --to cuda --report %t/r.json -o %t %s 2>&1 \
// RUN:   | count 0
// RUN: FileCheck %s --match-full-lines --input-file=%t/cuda/PK6002.cu
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t/r.json
// REPORT:      "counts": {
// REPORT-NEXT:   "PK6002": 8

__device__ float half_sum(float v) {
  for (int o = 8; o > 0; o >>= 1)
    v += __shfl_xor(v, o, 16);
// CHECK:    v += __shfl_xor_sync(0x0000ffffu, v, o, 16);
  return v;
}

__global__ void lanes(const float *in, float *out) {
  const int tid = threadIdx.x;
  const int lane = tid & 31;
  float v = in[blockIdx.x * blockDim.x + tid];
  if (lane < 16) {
    v = half_sum(v);
  }
  if (lane % 2 == 0)
    v += __shfl_down(v, 2);
// CHECK:    v += __shfl_down_sync(0x55555555u, v, 2);
  if (tid < 32) {
    v += __shfl(v, 31);
// CHECK:    v += __shfl_sync(0xffffffffu, v, 31);
  } else {
    v -= __shfl(v, 0);
// CHECK:    v -= __shfl_sync(0xffffffffu, v, 0);
  }
  if (v > 0.f) {
// CHECK:  const unsigned [[LANES:__pk_lanes_[0-9]+]] = __ballot_sync(0xffffffffu, v > 0.f);
// CHECK-NEXT:  if (v > 0.f) {
    v += __shfl_up(v, 1);
// CHECK:    v += __shfl_up_sync([[LANES]], v, 1);
    if (lane >= 8)
      v += __shfl_up(v, 8);
// CHECK:      v += __shfl_up_sync(([[LANES]] & 0xffffff00u), v, 8);
  } else {
    v = __shfl_xor(v, 1);
// CHECK:    v = __shfl_xor_sync((0xffffffffu & ~[[LANES]]), v, 1);
  }
  out[blockIdx.x * blockDim.x + tid] = v;
}
