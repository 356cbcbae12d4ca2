// PK6004: the unrolled volatile tail of a shared-memory reduction relies on
// lockstep warps; every step becomes read, __syncwarp, write, __syncwarp with
// the lanes that run it.
// RUN: rm -rf %t && %pk port -q --to cuda --report %t/r.json -o %t %s 2>&1 \
// RUN:   | count 0
// RUN: FileCheck %s --match-full-lines --input-file=%t/cuda/PK6004.cu
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t/r.json
// RUN: not %pk check --to cuda %s 2>&1 | FileCheck %s --check-prefix=CHECKCMD
// REPORT:      "counts": {
// REPORT-NEXT:   "PK6004": 8

__device__ void warp_reduce(volatile float *s, int tid) {
  s[tid] += s[tid + 32];
// CHECK:  { auto __pk_v = s[tid + 32]; __syncwarp(); s[tid] += __pk_v; __syncwarp(); }
// CHECKCMD: PK6004.cu:[[@LINE-2]]:3: warning: 's[tid] += s[tid + 32]': warp-synchronous volatile step races on Volta and newer; port splits it with __syncwarp() [PK6004]
  s[tid] += s[tid + 16];
  s[tid] += s[tid + 8];
  s[tid] += s[tid + 4];
  s[tid] += s[tid + 2];
  s[tid] += s[tid + 1];
// CHECK:  { auto __pk_v = s[tid + 1]; __syncwarp(); s[tid] += __pk_v; __syncwarp(); }
}

__global__ void reduce(const float *g, float *o) {
  __shared__ float sdata[256];
  unsigned tid = threadIdx.x;
  sdata[tid] = g[blockIdx.x * 256 + tid];
  __syncthreads();
  for (unsigned s = 128; s > 32; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
// CHECK:      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid < 32)
    warp_reduce(sdata, tid);
  if (tid < 16) {
    volatile float *vs = sdata;
    vs[tid] = fmaxf(vs[tid], vs[tid + 8]);
// CHECK:    { auto __pk_v = fmaxf(vs[tid], vs[tid + 8]); __syncwarp(0x0000ffffu); vs[tid] = __pk_v; __syncwarp(0x0000ffffu); }
    vs[tid] = fmaxf(vs[tid], vs[tid + 4]);
  }
  if (tid == 0)
    o[blockIdx.x] = sdata[0];
}
