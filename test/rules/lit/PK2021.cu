// PK2021: on native 64-lane warps, constants that encode the 32-lane warp
// (lane and warp ids, warps per block, warp-width macros and constants,
// reduction starts, scan bounds, the last lane, the first warp's fold) become
// 64-lane ones where they are written; a 32 that means something else stays.
// RUN: rm -rf %t && %pk port -q --to hip --wave64=native --report %t/r.json -o %t %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DIAG
// RUN: FileCheck %s --match-full-lines --input-file=%t/hip/PK2021.hip
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t/r.json

// REPORT: "PK2021": {{[0-9]+}}
// REPORT: "rule": "PK2021",
// REPORT-NEXT: "why": "WARP_SIZE: the warp width is 64 lanes under native warps"
// REPORT: "rule": "PK2021",
// REPORT-NEXT: "why": "kWarpSize: the warp width constant 32 is the 64-lane wave under native warps"
// REPORT: "rule": "PK2021",
// REPORT-NEXT: "why": "whole warps per block: 32 -> 64 for 64-lane warps"
// REPORT: "rule": "PK2021",
// REPORT-NEXT: "why": "warps per block: 32 -> 64 for 64-lane warps"
// REPORT: "rule": "PK2021",
// REPORT-NEXT: "why": "lane id: 31 -> 63 for 64-lane warps"
// REPORT: "rule": "PK2021",
// REPORT-NEXT: "why": "warp id: 5 -> 6 for 64-lane warps"
// REPORT: "rule": "PK2021",
// REPORT-NEXT: "why": "bound of a full-warp scan: 32 -> 64 for 64-lane warps"
// REPORT: "rule": "PK2021",
// REPORT-NEXT: "why": "the last lane: 31 -> 63 for 64-lane warps"

#define WARP_SIZE 32
// CHECK: #define WARP_SIZE 64
#define COLS 32
// CHECK: #define COLS 32
constexpr int kWarpSize = 32;
// CHECK: constexpr int kWarpSize = 64;

// Block-wide inclusive scan: a warp scan, the warp totals from the last lane.
// DIAG: PK2021.cu:[[@LINE+1]]:1: note: kernel blockScan: native 64-lane warps (--wave64=native) [PK2000]
template <int BLOCK>
__global__ void blockScan(const int *in, int *out) {
  static_assert(BLOCK % 32 == 0, "whole warps");
// CHECK:   static_assert(BLOCK % 64 == 0, "whole warps");
  constexpr int NUM_WARPS = BLOCK / 32;
// CHECK:   constexpr int NUM_WARPS = BLOCK / 64;
  __shared__ int totals[NUM_WARPS];
  const int lane = threadIdx.x & 31;
// CHECK:   const int lane = threadIdx.x & 63;
  const int warp = threadIdx.x >> 5;
// CHECK:   const int warp = threadIdx.x >> 6;
  const int gid = blockIdx.x * BLOCK + threadIdx.x;
  int v = in[gid];
  for (int d = 1; d < 32; d <<= 1) {
// CHECK:   for (int d = 1; d < 64; d <<= 1) {
    const int t = __shfl_up_sync(0xffffffff, v, d);
    if (lane >= d)
      v += t;
  }
  if (lane == 31)
// CHECK:   if (lane == 63)
    totals[warp] = v;
  __syncthreads();
  if (threadIdx.x == 0)
    for (int w = 1; w < NUM_WARPS; ++w)
      totals[w] += totals[w - 1];
  __syncthreads();
  out[gid] = warp > 0 ? v + totals[warp - 1] : v;
}
template __global__ void blockScan<256>(const int *, int *);

// Maximum of each row of COLS * 8 elements: named warp constants.
// DIAG: PK2021.cu:[[@LINE+1]]:1: note: kernel rowMax: native 64-lane warps (--wave64=native) [PK2000]
__global__ void rowMax(const float *in, float *out) {
  __shared__ float partial[8];
  const int lane = threadIdx.x % WARP_SIZE;
// CHECK:   const int lane = threadIdx.x % WARP_SIZE;
  const int warp = threadIdx.x / kWarpSize;
  const int nwarps = (blockDim.x + 31) / 32;
// CHECK:   const int nwarps = (blockDim.x + 63) / 64;
  float m = in[blockIdx.x * COLS * 8 + threadIdx.x];
// CHECK:   float m = in[blockIdx.x * COLS * 8 + threadIdx.x];
  for (int o = WARP_SIZE / 2; o > 0; o >>= 1)
    m = fmaxf(m, __shfl_xor_sync(0xffffffff, m, o));
  if (lane == 0)
    partial[warp] = m;
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int w = 1; w < nwarps; ++w)
      m = fmaxf(m, partial[w]);
    out[blockIdx.x] = m;
  }
}

// A shared-memory tree down to one warp, then the first warp's shuffles.
// DIAG: PK2021.cu:[[@LINE+1]]:1: note: kernel blockReduce: native 64-lane warps (--wave64=native) [PK2000]
__global__ void blockReduce(const float *in, float *partial) {
  __shared__ float sdata[256];
  const unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * 256 + tid];
  __syncthreads();
  for (unsigned s = 128; s > 32; s >>= 1) {
// CHECK:   for (unsigned s = 128; s > 64; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid < 32) {
// CHECK:   if (tid < 64) {
    float v = sdata[tid] + sdata[tid + 32];
// CHECK:     float v = sdata[tid] + sdata[tid + 64];
    for (int o = 16; o > 0; o /= 2)
// CHECK:     for (int o = 32; o > 0; o /= 2)
      v += __shfl_down_sync(0xffffffff, v, o);
    if (tid == 0)
      partial[blockIdx.x] = v;
  }
}
// DIAG-NOT: warning

// Lane ids spelled in hex, octal and binary keep their base, digit case and
// suffix when widened (the stored lane ids differ under native warps: PK2012).
// DIAG: PK2021.cu:[[@LINE+1]]:1: note: kernel spelledIds: native 64-lane warps (--wave64=native) [PK2000]
__global__ void spelledIds(int *a, int *b, int *c) {
  int v = __shfl_sync(0xffffffff, (int)threadIdx.x, 0);
  a[threadIdx.x] = v + (threadIdx.x & 0x1f);
// CHECK:   a[threadIdx.x] = v + (threadIdx.x & 0x3f);
// DIAG: PK2021.cu:[[@LINE-2]]:3: warning: --wave64=native: 'a[threadIdx.x]' stores a value that depends on the 32-lane warp numbering in global memory; the widened code may compute something else [PK2012]
  b[threadIdx.x] = (threadIdx.x & 0x1F) + (threadIdx.x & 0x1fu);
// CHECK:   b[threadIdx.x] = (threadIdx.x & 0x3F) + (threadIdx.x & 0x3fu);
// DIAG: PK2021.cu:[[@LINE-2]]:3: warning: {{.*}} [PK2012]
  c[threadIdx.x] = (threadIdx.x & 037) + (threadIdx.x & 0b11111);
// CHECK:   c[threadIdx.x] = (threadIdx.x & 077) + (threadIdx.x & 0b111111);
// DIAG: PK2021.cu:[[@LINE-2]]:3: warning: {{.*}} [PK2012]
}
// DIAG-NOT: warning
