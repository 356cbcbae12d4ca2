// PK5004: threads that communicate through shuffles or shared memory, in a
// pattern the lifter does not recognise, are reported at the first such
// construct; a scan across lanes (__shfl_up_sync) that is not the recognised
// block scan is reported where it deviates from it.
// RUN: rm -rf %t && %pk port -q --to nki -o %t %s 2>&1 | FileCheck %s
#include <cuda_runtime.h>

__global__ void warp_sum(const float *in, float *out) {
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = 16; o > 0; o >>= 1)
// CHECK: PK5004.cu:[[@LINE+1]]:10: warning: kernel 'warp_sum' is not lifted to NKI: __shfl_xor_sync: threads exchange values here; {{.*}} [PK5004]
    v += __shfl_xor_sync(0xffffffffu, v, o);
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

__global__ void reverse_block(const float *in, float *out) {
// CHECK: PK5004.cu:[[@LINE+1]]:20: warning: kernel 'reverse_block' is not lifted to NKI: __shared__ array 'tile': threads of a block communicate through shared memory{{.*}} [PK5004]
  __shared__ float tile[256];
  tile[threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x];
  __syncthreads();
  out[blockIdx.x * 256 + threadIdx.x] = tile[255 - threadIdx.x];
}

// A warp scan whose guard reads the lane inline is not the recognised step.
__global__ void warp_scan(const int *in, int *out) {
  __shared__ int totals[32];
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int d = 1; d < 32; d <<= 1) {
// CHECK: PK5004.cu:[[@LINE+1]]:19: warning: kernel 'warp_scan' is not lifted to NKI: __shfl_up_sync: a prefix scan across the lanes, not the recognised block scan: the step is not `T t = __shfl_up_sync(0xffffffff, v, d); if (lane >= d) v += t;` with a variable `lane = threadIdx.x & 31` [PK5004]
    const int t = __shfl_up_sync(0xffffffffu, v, d);
    if ((threadIdx.x & 31) >= d)
      v += t;
  }
  if ((threadIdx.x & 31) == 31)
    totals[threadIdx.x >> 5] = v;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = v + totals[0];
}

// The single-pass block scan of corpus/inclusive_scan (here with a constant
// block size) is lifted (a PK5001 note, no warning); the launch must have
// that block size.
// RUN: FileCheck --check-prefix=PY %s < %t/nki/PK5004.py
// PY: def scan256(in_, n, grid_x, block_x):
// PY: assert block_x == 256,
// PY: assert n <= 65536,
// PY: nisa.nc_matmul(
// CHECK: PK5004.cu:[[@LINE+1]]:17: note: kernel 'scan256' lifted to an NKI tile program: inclusive scan {{.*}} [PK5001]
__global__ void scan256(const int *in, int *out, int n) {
  constexpr int NUM_WARPS = 256 / 32;
  __shared__ int partials[32];
  __shared__ int totals[32];
  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x >> 5;
  const int tileStart = blockIdx.x * 256;
  int pre = 0;
  for (int i = threadIdx.x; i < tileStart; i += 256)
    pre += in[i];
  for (int o = 16; o > 0; o >>= 1)
    pre += __shfl_down_sync(0xffffffff, pre, o);
  if (lane == 0)
    partials[warp] = pre;
  __syncthreads();
  int blockOffset = 0;
  for (int w = 0; w < NUM_WARPS; ++w)
    blockOffset += partials[w];
  const int gid = tileStart + threadIdx.x;
  int v = gid < n ? in[gid] : 0;
  for (int d = 1; d < 32; d <<= 1) {
    const int t = __shfl_up_sync(0xffffffff, v, d);
    if (lane >= d)
      v += t;
  }
  if (lane == 31)
    totals[warp] = v;
  __syncthreads();
  if (warp == 0) {
    int t = lane < NUM_WARPS ? totals[lane] : 0;
    for (int d = 1; d < 32; d <<= 1) {
      const int u = __shfl_up_sync(0xffffffff, t, d);
      if (lane >= d)
        t += u;
    }
    if (lane < NUM_WARPS)
      totals[lane] = t;
  }
  __syncthreads();
  if (warp > 0)
    v += totals[warp - 1];
  if (gid < n)
    out[gid] = v + blockOffset;
}

// Each deviation is reported where it is, with what the shape expects.
__global__ void scan_own_total(const int *in, int *out, int n) {
  constexpr int NUM_WARPS = 256 / 32;
  __shared__ int partials[32];
  __shared__ int totals[32];
  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x >> 5;
  const int tileStart = blockIdx.x * 256;
  int pre = 0;
  for (int i = threadIdx.x; i < tileStart; i += 256)
    pre += in[i];
  for (int o = 16; o > 0; o >>= 1)
    pre += __shfl_down_sync(0xffffffff, pre, o);
  if (lane == 0)
    partials[warp] = pre;
  __syncthreads();
  int blockOffset = 0;
  for (int w = 0; w < NUM_WARPS; ++w)
    blockOffset += partials[w];
  const int gid = tileStart + threadIdx.x;
  int v = gid < n ? in[gid] : 0;
  for (int d = 1; d < 32; d <<= 1) {
    const int t = __shfl_up_sync(0xffffffff, v, d);
    if (lane >= d)
      v += t;
  }
  if (lane == 31)
    totals[warp] = v;
  __syncthreads();
  if (warp == 0) {
    int t = lane < NUM_WARPS ? totals[lane] : 0;
    for (int d = 1; d < 32; d <<= 1) {
      const int u = __shfl_up_sync(0xffffffff, t, d);
      if (lane >= d)
        t += u;
    }
    if (lane < NUM_WARPS)
      totals[lane] = t;
  }
  __syncthreads();
// CHECK: PK5004.cu:[[@LINE+1]]:3: warning: kernel 'scan_own_total' is not lifted to NKI: __shfl_up_sync: a prefix scan across the lanes, not the recognised block scan: expected `if (warp > 0) v += warpTotals[warp - 1];` (the totals of the warps before) [PK5004]
  if (warp > 0)
    v += totals[warp];
  if (gid < n)
    out[gid] = v + blockOffset;
}

__global__ void scan_no_barrier(const int *in, int *out, int n) {
  constexpr int NUM_WARPS = 256 / 32;
  __shared__ int partials[32];
  __shared__ int totals[32];
  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x >> 5;
  const int tileStart = blockIdx.x * 256;
  int pre = 0;
  for (int i = threadIdx.x; i < tileStart; i += 256)
    pre += in[i];
  for (int o = 16; o > 0; o >>= 1)
    pre += __shfl_down_sync(0xffffffff, pre, o);
  if (lane == 0)
    partials[warp] = pre;
  __syncthreads();
  int blockOffset = 0;
  for (int w = 0; w < NUM_WARPS; ++w)
    blockOffset += partials[w];
  const int gid = tileStart + threadIdx.x;
  int v = gid < n ? in[gid] : 0;
  for (int d = 1; d < 32; d <<= 1) {
    const int t = __shfl_up_sync(0xffffffff, v, d);
    if (lane >= d)
      v += t;
  }
  if (lane == 31)
    totals[warp] = v;
// CHECK: PK5004.cu:[[@LINE+1]]:3: warning: kernel 'scan_no_barrier' is not lifted to NKI: __shfl_up_sync: a prefix scan across the lanes, not the recognised block scan: expected `__syncthreads();` [PK5004]
  if (warp == 0) {
    int t = lane < NUM_WARPS ? totals[lane] : 0;
    for (int d = 1; d < 32; d <<= 1) {
      const int u = __shfl_up_sync(0xffffffff, t, d);
      if (lane >= d)
        t += u;
    }
    if (lane < NUM_WARPS)
      totals[lane] = t;
  }
  __syncthreads();
  if (warp > 0)
    v += totals[warp - 1];
  if (gid < n)
    out[gid] = v + blockOffset;
}

__global__ void scan_float(const float *in, float *out) {
  float v = in[threadIdx.x];
  const int lane = threadIdx.x & 31;
  for (int d = 1; d < 32; d <<= 1) {
// CHECK: PK5004.cu:[[@LINE+1]]:21: warning: kernel 'scan_float' is not lifted to NKI: __shfl_up_sync: a prefix scan across the lanes, not the recognised block scan: the scanned values are not 32-bit integers ('float'): floating-point sums depend on their order, and only integer scans (exact in any order) become matrix products [PK5004]
    const float t = __shfl_up_sync(0xffffffff, v, d);
    if (lane >= d)
      v += t;
  }
  out[threadIdx.x] = v;
}

__global__ void scan_unguarded(const int *in, int *out) {
  int v = in[threadIdx.x];
  const int lane = threadIdx.x & 31;
  for (int d = 1; d < 32; d <<= 1) {
// CHECK: PK5004.cu:[[@LINE+1]]:19: warning: kernel 'scan_unguarded' is not lifted to NKI: __shfl_up_sync: a prefix scan across the lanes, not the recognised block scan: the step is not guarded by `if (lane >= d)`: a lane below d would add the value it reads from itself [PK5004]
    const int t = __shfl_up_sync(0xffffffff, v, d);
    if (true)
      v += t;
  }
  out[threadIdx.x] = v;
}

__global__ void scan_half_mask(const int *in, int *out) {
  int v = in[threadIdx.x];
  const int lane = threadIdx.x & 31;
  for (int d = 1; d < 32; d <<= 1) {
// CHECK: PK5004.cu:[[@LINE+1]]:19: warning: kernel 'scan_half_mask' is not lifted to NKI: __shfl_up_sync: a prefix scan across the lanes, not the recognised block scan: the mask is not 0xffffffff: every lane of the warp must take part in each step [PK5004]
    const int t = __shfl_up_sync(0xffff, v, d);
    if (lane >= d)
      v += t;
  }
  out[threadIdx.x] = v;
}

__global__ void scan_short(const int *in, int *out) {
  int v = in[threadIdx.x];
  const int lane = threadIdx.x & 31;
  for (int d = 1; d < 16; d <<= 1) {
// CHECK: PK5004.cu:[[@LINE+1]]:19: warning: kernel 'scan_short' is not lifted to NKI: __shfl_up_sync: a prefix scan across the lanes, not the recognised block scan: the shuffle-up offsets are not 1, 2, 4, 8, 16 (`for (int d = 1; d < 32; d <<= 1)`), so the lanes do not each add all the lanes below them [PK5004]
    const int t = __shfl_up_sync(0xffffffff, v, d);
    if (lane >= d)
      v += t;
  }
  out[threadIdx.x] = v;
}

__global__ void scan_then_more(const int *in, int *out, int n) {
  constexpr int NUM_WARPS = 256 / 32;
  __shared__ int partials[32];
  __shared__ int totals[32];
  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x >> 5;
  const int tileStart = blockIdx.x * 256;
  int pre = 0;
  for (int i = threadIdx.x; i < tileStart; i += 256)
    pre += in[i];
  for (int o = 16; o > 0; o >>= 1)
    pre += __shfl_down_sync(0xffffffff, pre, o);
  if (lane == 0)
    partials[warp] = pre;
  __syncthreads();
  int blockOffset = 0;
  for (int w = 0; w < NUM_WARPS; ++w)
    blockOffset += partials[w];
  const int gid = tileStart + threadIdx.x;
  int v = gid < n ? in[gid] : 0;
  for (int d = 1; d < 32; d <<= 1) {
    const int t = __shfl_up_sync(0xffffffff, v, d);
    if (lane >= d)
      v += t;
  }
  if (lane == 31)
    totals[warp] = v;
  __syncthreads();
  if (warp == 0) {
    int t = lane < NUM_WARPS ? totals[lane] : 0;
    for (int d = 1; d < 32; d <<= 1) {
      const int u = __shfl_up_sync(0xffffffff, t, d);
      if (lane >= d)
        t += u;
    }
    if (lane < NUM_WARPS)
      totals[lane] = t;
  }
  __syncthreads();
  if (warp > 0)
    v += totals[warp - 1];
  if (gid < n)
    out[gid] = v + blockOffset;
// CHECK: PK5004.cu:[[@LINE+1]]:3: warning: kernel 'scan_then_more' is not lifted to NKI: __shfl_up_sync: a prefix scan across the lanes, not the recognised block scan: a statement after the store `out[gid] = v + blockOffset` [PK5004]
  __syncthreads();
}

__global__ void scan_no_store(const int *in, int *out, int n) {
  constexpr int NUM_WARPS = 256 / 32;
  __shared__ int partials[32];
  __shared__ int totals[32];
  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x >> 5;
  const int tileStart = blockIdx.x * 256;
  int pre = 0;
  for (int i = threadIdx.x; i < tileStart; i += 256)
    pre += in[i];
  for (int o = 16; o > 0; o >>= 1)
    pre += __shfl_down_sync(0xffffffff, pre, o);
  if (lane == 0)
    partials[warp] = pre;
  __syncthreads();
  int blockOffset = 0;
  for (int w = 0; w < NUM_WARPS; ++w)
    blockOffset += partials[w];
  const int gid = tileStart + threadIdx.x;
  int v = gid < n ? in[gid] : 0;
  for (int d = 1; d < 32; d <<= 1) {
    const int t = __shfl_up_sync(0xffffffff, v, d);
    if (lane >= d)
      v += t;
  }
  if (lane == 31)
    totals[warp] = v;
  __syncthreads();
  if (warp == 0) {
    int t = lane < NUM_WARPS ? totals[lane] : 0;
    for (int d = 1; d < 32; d <<= 1) {
      const int u = __shfl_up_sync(0xffffffff, t, d);
      if (lane >= d)
        t += u;
    }
    if (lane < NUM_WARPS)
      totals[lane] = t;
  }
  __syncthreads();
  if (warp > 0)
    v += totals[warp - 1];
// CHECK: PK5004.cu:[[@LINE+1]]:1: warning: kernel 'scan_no_store' is not lifted to NKI: __shfl_up_sync: a prefix scan across the lanes, not the recognised block scan: the body ends before `if (gid < n) out[gid] = v + blockOffset;` [PK5004]
}

// CHECK: PK5004.cu:[[@LINE+1]]:17: warning: kernel 'scan_extra_param' is not lifted to NKI: __shfl_up_sync: a prefix scan across the lanes, not the recognised block scan: the kernel has parameters besides the input, the output and the element count [PK5004]
__global__ void scan_extra_param(const int *in, int *out, int n,
                                 int unused) {
  constexpr int NUM_WARPS = 256 / 32;
  __shared__ int partials[32];
  __shared__ int totals[32];
  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x >> 5;
  const int tileStart = blockIdx.x * 256;
  int pre = 0;
  for (int i = threadIdx.x; i < tileStart; i += 256)
    pre += in[i];
  for (int o = 16; o > 0; o >>= 1)
    pre += __shfl_down_sync(0xffffffff, pre, o);
  if (lane == 0)
    partials[warp] = pre;
  __syncthreads();
  int blockOffset = 0;
  for (int w = 0; w < NUM_WARPS; ++w)
    blockOffset += partials[w];
  const int gid = tileStart + threadIdx.x;
  int v = gid < n ? in[gid] : 0;
  for (int d = 1; d < 32; d <<= 1) {
    const int t = __shfl_up_sync(0xffffffff, v, d);
    if (lane >= d)
      v += t;
  }
  if (lane == 31)
    totals[warp] = v;
  __syncthreads();
  if (warp == 0) {
    int t = lane < NUM_WARPS ? totals[lane] : 0;
    for (int d = 1; d < 32; d <<= 1) {
      const int u = __shfl_up_sync(0xffffffff, t, d);
      if (lane >= d)
        t += u;
    }
    if (lane < NUM_WARPS)
      totals[lane] = t;
  }
  __syncthreads();
  if (warp > 0)
    v += totals[warp - 1];
  if (gid < n)
    out[gid] = v + blockOffset;
}

__global__ void scan_one_step(const int *in, int *out) {
  int v = in[threadIdx.x];
  const int lane = threadIdx.x & 31;
// CHECK: PK5004.cu:[[@LINE+1]]:17: warning: kernel 'scan_one_step' is not lifted to NKI: __shfl_up_sync: a prefix scan across the lanes, not the recognised block scan: a shuffle-up outside a loop over the offsets 1, 2, 4, 8, 16 [PK5004]
  const int t = __shfl_up_sync(0xffffffff, v, 1);
  if (lane >= 1)
    v += t;
  out[threadIdx.x] = v;
}
// CHECK-NOT: warning
