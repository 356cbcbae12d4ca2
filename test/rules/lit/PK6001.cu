// PK6001: mask-less warp intrinsics that every lane of the warp reaches
// (kernel top level, loops with uniform bounds, uniform conditions, after
// lanes exited, device functions called only from such places) become their
// *_sync forms with the full mask.  Methods and user functions with the same
// names, and unrelated code, stay byte-identical.
// RUN: rm -rf %t && %pk port -q --to cuda --report %t/r.json -o %t %s 2>&1 \
// RUN:   | count 0
// RUN: FileCheck %s --match-full-lines --input-file=%t/cuda/PK6001.cu
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t/r.json
// RUN: not %pk check --to cuda %s 2>&1 | FileCheck %s --check-prefix=CHECKCMD
// REPORT:      "counts": {
// REPORT-NEXT:   "PK6001": 7

#define SHFL_XOR(v, m) __shfl_xor(v, m)
// CHECK: #define SHFL_XOR(v, m) __shfl_xor_sync(0xffffffffu, v, m)

struct Tile {
  __device__ float __shfl_down(float v, int o) const { return v + o; }
};
// CHECK:  __device__ float __shfl_down(float v, int o) const { return v + o; }

__device__ int __any(int p, int q) { return p || q; }
// CHECK: __device__ int __any(int p, int q) { return p || q; }

__device__ float warp_sum(float v) {
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_down(v, o);
// CHECK:    v += __shfl_down_sync(0xffffffffu, v, o);
// CHECKCMD: PK6001.cu:[[@LINE-2]]:10: warning: __shfl_down has no mask and does not compile for sm_70 and newer (CUDA 9+): port gives __shfl_down_sync(0xffffffffu, ...) [PK6001]
  return v;
}

template <typename T> __device__ T bcast(T v) { return __shfl(v, 0); }
// CHECK: template <typename T> __device__ T bcast(T v) { return __shfl_sync(0xffffffffu, v, 0); }

__global__ void stats(const float *in, float *out, int n, int mode) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid >= n)
    return;
  float v = in[tid];
  float s = warp_sum(v);
  float m = v;
  for (int k = 1; k < 32; k <<= 1)
    m = fmaxf(m, SHFL_XOR(m, k));
  if (mode > 1) {
    s += __shfl_up(s, 1, 16);
// CHECK:    s += __shfl_up_sync(0xffffffffu, s, 1, 16);
  }
  unsigned b = __ballot(v > 0.f);
// CHECK:  unsigned b = __ballot_sync(0xffffffffu, v > 0.f);
  int a = __any(v < 0.f) + __all(v < 1.f) + __any(1, 0);
// CHECK:  int a = __any_sync(0xffffffffu, v < 0.f) + __all_sync(0xffffffffu, v < 1.f) + __any(1, 0);
  Tile t;
  s += t.__shfl_down(s, 1) + bcast(s);
// CHECK:  s += t.__shfl_down(s, 1) + bcast(s);
  out[tid] = s + m + b + a;
}
