// PK2007: implicit warp-synchronous code reads other lanes' shared slots
// through a volatile pointer with no synchronisation; each such step becomes
// a read phase and a write phase separated by wave barriers (PK2003's
// __pk_syncwarp), and the kernels using it keep logical 32-lane warps.
// RUN: rm -rf %t && %pk port -q --to hip --report %t/r.json -o %t %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DIAG
// RUN: FileCheck %s --match-full-lines --input-file=%t/hip/PK2007.hip
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t/r.json
// REPORT:      "counts": {
// REPORT:        "PK2007": 9
#include <cuda_runtime.h>
// CHECK: __device__ static inline void __pk_syncwarp() {

template <unsigned BLOCK>
__device__ void warp_reduce(volatile float *s, unsigned tid) {
  if (BLOCK >= 64) s[tid] += s[tid + 32];
// CHECK:  if (BLOCK >= 64) { auto __pk_v = s[tid] + s[tid + 32]; __pk_syncwarp(); s[tid] = __pk_v; __pk_syncwarp(); }
// REPORT:      "line": [[@LINE-2]],
// REPORT-NEXT: "offset": {{[0-9]+}},
// REPORT-NEXT: "replacement": "{ auto __pk_v = s[tid] + s[tid + 32]; __pk_syncwarp(); s[tid] = __pk_v; __pk_syncwarp(); }",
// REPORT-NEXT: "rule": "PK2007",
// REPORT-NEXT: "why": "'s[tid] += s[tid + 32]' reads another lane's slot and writes its own: all lanes read, then all write, with a wave barrier between (warp-synchronous code needs explicit synchronisation)"
  if (BLOCK >= 32) s[tid] += s[tid + 16];
// CHECK:  if (BLOCK >= 32) { auto __pk_v = s[tid] + s[tid + 16]; __pk_syncwarp(); s[tid] = __pk_v; __pk_syncwarp(); }
  s[tid] += s[tid + 8];
// CHECK:  { auto __pk_v = s[tid] + s[tid + 8]; __pk_syncwarp(); s[tid] = __pk_v; __pk_syncwarp(); }
  s[tid] += s[tid + 4];
  s[tid] += s[tid + 2];
  s[tid] += s[tid + 1];
// CHECK:  { auto __pk_v = s[tid] + s[tid + 1]; __pk_syncwarp(); s[tid] = __pk_v; __pk_syncwarp(); }
}

// DIAG: PK2007.cu:[[@LINE+1]]:1: note: kernel reduce6: logical 32-lane warps inside 64-lane waves because warp-synchronous step 's[tid] += s[tid + 32]' is unrolled for 32 lanes (line [[#@LINE-17]]) [PK2000]
template <unsigned BLOCK>
__global__ void reduce6(const float *__restrict__ in, float *__restrict__ out, unsigned n) {
  __shared__ float sdata[BLOCK];
  const unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * (BLOCK * 2) + tid;
  float sum = 0.f;
  while (i < n) {
    sum += in[i];
    if (i + BLOCK < n) sum += in[i + BLOCK];
    i += gridDim.x * BLOCK * 2;
  }
  sdata[tid] = sum;
  __syncthreads();
  if (BLOCK >= 256) { if (tid < 128) sdata[tid] += sdata[tid + 128]; __syncthreads(); }
// CHECK:  if (BLOCK >= 256) { if (tid < 128) sdata[tid] += sdata[tid + 128]; __syncthreads(); }
  if (BLOCK >= 128) { if (tid < 64) sdata[tid] += sdata[tid + 64]; __syncthreads(); }
  if (tid < 32) warp_reduce<BLOCK>(sdata, tid);
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

template __global__ void reduce6<256>(const float *, float *, unsigned);

// A max-reduction through a volatile shared pointer.
// DIAG: PK2007.cu:[[@LINE+1]]:1: note: kernel warp_max: logical 32-lane warps inside 64-lane waves because warp-synchronous step 'v[t] = max(v[t], v[t + 32])' is unrolled for 32 lanes (line [[#@LINE+8]]) [PK2000]
__global__ void warp_max(const int *in, int *out) {
  __shared__ int s[64];
  volatile int *v = s;
  const int t = threadIdx.x;
  s[t] = in[blockIdx.x * 64 + t];
  __syncthreads();
  if (t < 32) {
    v[t] = max(v[t], v[t + 32]);
// CHECK:    { auto __pk_v = max(v[t], v[t + 32]); __pk_syncwarp(); v[t] = __pk_v; __pk_syncwarp(); }
    v[t] = max(v[t], v[t + 16]);
    v[t] = max(v[t], v[t + 8]);
// CHECK:    { auto __pk_v = max(v[t], v[t + 8]); __pk_syncwarp(); v[t] = __pk_v; __pk_syncwarp(); }
  }
  if (t == 0) out[blockIdx.x] = max(v[0], max(v[1], max(v[2], v[3])));
// CHECK:  if (t == 0) out[blockIdx.x] = max(v[0], max(v[1], max(v[2], v[3])));
}
// DIAG-NOT: warning
