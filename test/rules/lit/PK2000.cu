// PK2000: every kernel whose code depends on the warp width gets one note
// with the strategy of its port to 64-lane waves: native 64-lane warps (only
// where nothing it computes depends on the warp width), or logical 32-lane
// warps naming the first construct that rules native out, or that a kernel
// sharing its warp code needs them, or that --wave64 asked for it.  `check`
// prints the same decision.
// RUN: rm -rf %t
// RUN: %pk port -q --to hip --wave64=logical32 -o %t/log %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=LOG
// RUN: %pk port -q --to hip --wave64=native -o %t/nat %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NAT
// RUN: not %pk check --to hip %s 2>&1 | FileCheck %s --check-prefix=CHK
// RUN: %pk port -q --to hip -o %t/auto %s 2> %t/auto.err
// RUN: FileCheck %s --match-full-lines --input-file=%t/auto/hip/PK2000.hip
// RUN: FileCheck %s --check-prefix=DIAG --input-file=%t/auto.err
// LOG-NOT: kernel saxpy
// NAT-NOT: kernel saxpy
// CHK-NOT: kernel saxpy
// DIAG-NOT: kernel saxpy
#include <cuda_runtime.h>

__device__ float warp_sum(float v) {
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_down_sync(0xffffffff, v, o);
  return v;
}

// No warp code: no note.
__global__ void saxpy(float a, const float *x, float *y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

// Every warp adds its sum: native warps give the same total.
// LOG: PK2000.cu:[[@LINE+5]]:1: note: kernel block_total: logical 32-lane warps inside 64-lane waves (--wave64=logical32) [PK2000]
// NAT: PK2000.cu:[[@LINE+4]]:1: note: kernel block_total: native 64-lane warps (--wave64=native) [PK2000]
// CHK: PK2000.cu:[[@LINE+3]]:1: note: kernel block_total: the HIP port can use native 64-lane warps [PK2000]
// DIAG: PK2000.cu:[[@LINE+2]]:1: note: kernel block_total: native 64-lane warps (its warp code does not depend on the data layout of 32-lane warps) [PK2000]
// CHECK: // port-kernel: note: kernel block_total: native 64-lane warps (its warp code does not depend on the data layout of 32-lane warps) [PK2000]
__global__ void block_total(const float *x, float *out, int n) {
// CHECK-NEXT: __global__ void block_total(const float *x, float *out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? x[i] : 0.f;
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_xor_sync(0xffffffff, v, o);
  if ((threadIdx.x & 31) == 0)
    atomicAdd(out, v);
}

// One row per warp: the grid assumes 32-lane warps.
// LOG: PK2000.cu:[[@LINE+4]]:1: note: kernel row_sums: logical 32-lane warps inside 64-lane waves (--wave64=logical32) [PK2000]
// NAT: PK2000.cu:[[@LINE+3]]:1: note: kernel row_sums: native 64-lane warps (--wave64=native) [PK2000]
// CHK: PK2000.cu:[[@LINE+2]]:1: note: kernel row_sums: the HIP port keeps logical 32-lane warps because 'row >= rows' depends on the 32-lane warp numbering (line [[#@LINE+5]]) [PK2000]
// DIAG: PK2000.cu:[[@LINE+1]]:1: note: kernel row_sums: logical 32-lane warps inside 64-lane waves because 'row >= rows' depends on the 32-lane warp numbering (line [[#@LINE+4]]) [PK2000]
__global__ void row_sums(const float *x, float *out, int rows, int cols) {
  const int lane = threadIdx.x & 31;
  const int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  if (row >= rows)
    return;
  float s = 0.f;
  for (int c = lane; c < cols; c += 32)
    s += x[row * cols + c];
  s = warp_sum(s);
  if (lane == 0)
    out[row] = s;
}

// Column sums of 32-column tiles: nothing here needs 32-lane warps, but
// warp_sum is shared with row_sums.
// DIAG: PK2000.cu:[[@LINE+1]]:1: note: kernel tile_totals: logical 32-lane warps inside 64-lane waves because it shares warp code with kernel row_sums, where 'row >= rows' depends on the 32-lane warp numbering (line [[#@LINE-12]]) [PK2000]
__global__ void tile_totals(const float *x, float *out) {
  const float s = warp_sum(x[blockIdx.x * blockDim.x + threadIdx.x]);
  if ((threadIdx.x & 31) == 0)
    atomicAdd(&out[blockIdx.x], s);
}

// Thread 0 writes the sum of the first warp of its block: with 64-lane
// warps it would add 64 values, so this kernel needs logical warps.
// DIAG: PK2000.cu:[[@LINE+1]]:1: note: kernel first_warp_total: logical 32-lane warps inside 64-lane waves because 'out[blockIdx.x]' writes a value combined across one warp's lanes only from the threads 'threadIdx.x == 0' selects: under 64-lane warps it combines 64 lanes instead of 32 (line [[#@LINE+6]]) [PK2000]
__global__ void first_warp_total(const float *x, float *out) {
  float v = x[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_down_sync(0xffffffff, v, o);
  if (threadIdx.x == 0)
    out[blockIdx.x] = v;
}

// The same through an early exit and an atomic.
// DIAG: PK2000.cu:[[@LINE+1]]:1: note: kernel first_warp_atomic: logical 32-lane warps inside 64-lane waves because 'atomicAdd(out, v)' writes a value combined across one warp's lanes only from the threads 'threadIdx.x != 0' selects: under 64-lane warps it combines 64 lanes instead of 32 (line [[#@LINE+7]]) [PK2000]
__global__ void first_warp_atomic(const float *x, float *out) {
  float v = x[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_xor_sync(0xffffffff, v, o);
  if (threadIdx.x != 0)
    return;
  atomicAdd(out, v);
}

// Two stages: per-warp sums in shared slots, then the first warp adds the
// slots. The first warp's sum covers every warp: native warps keep it.
// DIAG: PK2000.cu:[[@LINE+1]]:1: note: kernel two_stage: native 64-lane warps {{.*}} [PK2000]
__global__ void two_stage(const float *x, float *out) {
  __shared__ float part[32];
  const int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;
  float v = x[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = warpSize / 2; o > 0; o /= 2)
    v += __shfl_down_sync(0xffffffff, v, o);
  if (lane == 0)
    part[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < blockDim.x / warpSize ? part[lane] : 0.f;
    for (int o = warpSize / 2; o > 0; o /= 2)
      v += __shfl_down_sync(0xffffffff, v, o);
    if (lane == 0)
      out[blockIdx.x] = v;
  }
}

// A warp width given as a template argument: a template's written body
// serves every instantiation, so a parameter that is 32 (or 31, or
// 0xffffffff) in any of them keeps logical warps, named with the
// instantiation and the line where warp code reads it.
template <int W>
__device__ int reduce_w(int v) {
  for (int o = W / 2; o > 0; o /= 2)
    v += __shfl_down_sync(0xffffffff, v, o, W);
  return v;
}
// DIAG: PK2000.cu:[[@LINE+1]]:1: note: kernel literal_arg: logical 32-lane warps inside 64-lane waves because template parameter 'W' is 32 in 'reduce_w<32>': a warp width that depends on a template argument is not widened (line [[#@LINE-4]]) [PK2000]
__global__ void literal_arg(const int *in, int *out) {
  out[threadIdx.x] = reduce_w<32>(in[threadIdx.x]);
}

template <int W = 32>
__device__ int lane_of(int t) { return t & (W - 1); }
// DIAG: PK2000.cu:[[@LINE+1]]:1: note: kernel default_arg: logical 32-lane warps inside 64-lane waves because template parameter 'W' is 32 in 'lane_of<32>': a warp width that depends on a template argument is not widened (line [[#@LINE-1]]) [PK2000]
__global__ void default_arg(const int *in, int *out) {
  unsigned b = __ballot_sync(0xffffffff, in[threadIdx.x] > 0);
  if (lane_of(threadIdx.x) == 0)
    atomicAdd(out, __popc(b));
}

template <int W>
struct WarpWidth {
  static constexpr int kWidth = W;
};
// DIAG: PK2000.cu:[[@LINE+1]]:1: note: kernel class_constant: logical 32-lane warps inside 64-lane waves because template parameter 'W' is 32 in 'WarpWidth<32>': a warp width that depends on a template argument is not widened (line [[#@LINE-2]]) [PK2000]
__global__ void class_constant(const int *in, int *out) {
  unsigned b = __ballot_sync(0xffffffff, in[threadIdx.x] > 0);
  if (threadIdx.x % WarpWidth<32>::kWidth == 0)
    atomicAdd(out, __popc(b));
}

template <int W>
__device__ int pair_sum(int v) {
  if constexpr (W == 32)
    return v + __shfl_xor_sync(0xffffffff, v, 16);
  else
    return v;
}
template <int WIDTH>
__device__ int forward(int v) { return pair_sum<WIDTH>(v); }
// DIAG: PK2000.cu:[[@LINE+1]]:1: note: kernel forwarded: logical 32-lane warps inside 64-lane waves because template parameter 'W' is 32 in 'pair_sum<32>': a warp width that depends on a template argument is not widened (line [[#@LINE-7]]) [PK2000]
__global__ void forwarded(const int *in, int *out) {
  unsigned b = __ballot_sync(0xffffffff, in[threadIdx.x] > 0);
  out[threadIdx.x] = forward<32>(in[threadIdx.x]) + __popc(b);
}

// Per-warp slots N / W, lane t % W and a loop over N / W warps.
// DIAG: PK2000.cu:[[@LINE+1]]:1: note: kernel warp_slots: logical 32-lane warps inside 64-lane waves because template parameter 'W' is 32 in 'warp_slots<32, 256>': a warp width that depends on a template argument is not widened (line [[#@LINE+2]]) [PK2000]
template <int W, int N> __global__ void warp_slots(const int *in, int *out) {
  __shared__ int part[N / W];
  int t = threadIdx.x, lane = t % W, warp = t / W;
  unsigned b = __ballot_sync(0xffffffff, in[t] > 0);
  if (lane == 0)
    part[warp] = __popc(b);
  __syncthreads();
  if (t == 0) {
    int s = 0;
    for (int i = 0; i < N / W; ++i)
      s += part[i];
    out[blockIdx.x] = s;
  }
}
template __global__ void warp_slots<32, 256>(const int *, int *);

// A parameter that is never warp-like (a block size) changes nothing.
// DIAG: PK2000.cu:[[@LINE+1]]:1: note: kernel block_sized: native 64-lane warps {{.*}} [PK2000]
template <int BLOCK> __global__ void block_sized(const float *x, float *out) {
  float v = x[blockIdx.x * BLOCK + threadIdx.x];
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_xor_sync(0xffffffff, v, o);
  if ((threadIdx.x & 31) == 0)
    atomicAdd(out, v);
}
template __global__ void block_sized<256>(const float *, float *);

// A vote's answer stored by every lane (each thread learns its warp's
// answer, as the CUDA samples' vote test checks): 64-lane warps would
// answer for 64 lanes.
// DIAG: PK2000.cu:[[@LINE+1]]:1: note: kernel vote_per_thread: logical 32-lane warps inside 64-lane waves because 'result[t]' stores a vote's answer (__any, __all) from every lane: each thread would get the answer of 64 lanes instead of its 32-lane warp's (line [[#@LINE+3]]) [PK2000]
__global__ void vote_per_thread(const int *in, int *result) {
  int t = threadIdx.x;
  result[t] = __any_sync(0xffffffff, in[t] != 0);
}

// A store that a vote guards, by every lane.
// DIAG: PK2000.cu:[[@LINE+1]]:1: note: kernel vote_guarded: logical 32-lane warps inside 64-lane waves because 'flags[t]' is stored by the lanes of warps for which '__all_sync(0xffffffff, t >= 48)', a vote across the lanes of a warp, holds: under 64-lane warps it is decided for 64 lanes instead of 32 (line [[#@LINE+4]]) [PK2000]
__global__ void vote_guarded(bool *flags) {
  int t = threadIdx.x;
  if (__all_sync(0xffffffff, t >= 48))
    flags[t] = true;
}

// One lane per warp stores the answer (its warp's slot): native warps give
// the block's answer as well.
// DIAG: PK2000.cu:[[@LINE+1]]:1: note: kernel vote_by_leader: native 64-lane warps {{.*}} [PK2000]
__global__ void vote_by_leader(const int *in, int *anyOut) {
  int t = threadIdx.x;
  int any = __any_sync(0xffffffff, in[t] != 0);
  if ((t & 31) == 0 && any)
    atomicOr(anyOut, 1);
}
