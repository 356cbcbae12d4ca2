// The single-pass block scan of corpus/inclusive_scan with a constant block
// size, written once for test/rules/lit/PK5004.cu, which includes it once per
// variant with VARIANT and KERNEL (the kernel's name) defined.  As it is
// (VARIANT LIFTED) it is lifted; each other variant changes one statement, at
// a hook below, and the checks there (prefix SCAN, matched in line order)
// expect the finding at that statement.  The hooks sit between statements:
// the lifter matches a statement on its text as written, inactive
// preprocessor branches included.
#define LIFTED 0
#define OWN_TOTAL 1
#define NO_BARRIER 2
#define THEN_MORE 3
#define NO_STORE 4
#define EXTRA_PARAM 5

#if VARIANT == EXTRA_PARAM
// SCAN: block_scan.cuh:[[@LINE+1]]:17: warning: kernel 'scan_extra_param' is not lifted to NKI: __shfl_up_sync: a prefix scan across the lanes, not the recognised block scan: the kernel has parameters besides the input, the output and the element count [PK5004]
__global__ void KERNEL(const int *in, int *out, int n, int unused) {
#else
// SCAN: block_scan.cuh:[[@LINE+1]]:17: note: kernel 'scan256' lifted to an NKI tile program: inclusive scan {{.*}} [PK5001]
__global__ void KERNEL(const int *in, int *out, int n) {
#endif
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
#if VARIANT != NO_BARRIER
  __syncthreads();
#endif
// SCAN: block_scan.cuh:[[@LINE+1]]:3: warning: kernel 'scan_no_barrier' is not lifted to NKI: __shfl_up_sync: a prefix scan across the lanes, not the recognised block scan: expected `__syncthreads();` [PK5004]
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
#if VARIANT == OWN_TOTAL
// SCAN: block_scan.cuh:[[@LINE+1]]:3: warning: kernel 'scan_own_total' is not lifted to NKI: __shfl_up_sync: a prefix scan across the lanes, not the recognised block scan: expected `if (warp > 0) v += warpTotals[warp - 1];` (the totals of the warps before) [PK5004]
  if (warp > 0)
    v += totals[warp];
#else
  if (warp > 0)
    v += totals[warp - 1];
#endif
#if VARIANT != NO_STORE
  if (gid < n)
    out[gid] = v + blockOffset;
#endif
#if VARIANT == THEN_MORE
// SCAN: block_scan.cuh:[[@LINE+1]]:3: warning: kernel 'scan_then_more' is not lifted to NKI: __shfl_up_sync: a prefix scan across the lanes, not the recognised block scan: a statement after the store `out[gid] = v + blockOffset` [PK5004]
  __syncthreads();
#endif
// SCAN: block_scan.cuh:[[@LINE+1]]:1: warning: kernel 'scan_no_store' is not lifted to NKI: __shfl_up_sync: a prefix scan across the lanes, not the recognised block scan: the body ends before `if (gid < n) out[gid] = v + blockOffset;` [PK5004]
}

#undef LIFTED
#undef OWN_TOTAL
#undef NO_BARRIER
#undef THEN_MORE
#undef NO_STORE
#undef EXTRA_PARAM
#undef VARIANT
#undef KERNEL
