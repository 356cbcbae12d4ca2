// PK5004: threads that communicate through shuffles or shared memory, in a
// pattern the lifter does not recognise, are reported at the first such
// construct; a scan across lanes (__shfl_up_sync) that is not the recognised
// block scan is reported where it deviates from it.
// RUN: rm -rf %t && %pk port -q --to nki -o %t %s > %t.log 2>&1
// RUN: FileCheck %s < %t.log
// RUN: FileCheck --check-prefix=SCAN %S/Inputs/PK5004/block_scan.cuh < %t.log
// RUN: grep warning: %t.log | count 15
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
// that block size.  Inputs/PK5004/block_scan.cuh holds it once; each other
// inclusion changes one statement, and the checks there expect the finding
// at that statement, with what the recognised shape expects there.
// RUN: FileCheck --check-prefix=PY %s < %t/nki/PK5004.py
// PY: def scan256(in_, n, grid_x, block_x):
// PY: assert block_x == 256,
// PY: assert n <= 65536,
// PY: nisa.nc_matmul(
#define VARIANT LIFTED
#define KERNEL scan256
#include "Inputs/PK5004/block_scan.cuh"
#define VARIANT OWN_TOTAL
#define KERNEL scan_own_total
#include "Inputs/PK5004/block_scan.cuh"
#define VARIANT NO_BARRIER
#define KERNEL scan_no_barrier
#include "Inputs/PK5004/block_scan.cuh"
#define VARIANT THEN_MORE
#define KERNEL scan_then_more
#include "Inputs/PK5004/block_scan.cuh"
#define VARIANT NO_STORE
#define KERNEL scan_no_store
#include "Inputs/PK5004/block_scan.cuh"
#define VARIANT EXTRA_PARAM
#define KERNEL scan_extra_param
#include "Inputs/PK5004/block_scan.cuh"

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

__global__ void scan_one_step(const int *in, int *out) {
  int v = in[threadIdx.x];
  const int lane = threadIdx.x & 31;
// CHECK: PK5004.cu:[[@LINE+1]]:17: warning: kernel 'scan_one_step' is not lifted to NKI: __shfl_up_sync: a prefix scan across the lanes, not the recognised block scan: a shuffle-up outside a loop over the offsets 1, 2, 4, 8, 16 [PK5004]
  const int t = __shfl_up_sync(0xffffffff, v, 1);
  if (lane >= 1)
    v += t;
  out[threadIdx.x] = v;
}

// The scan is compared as written: a conditional inside a statement (whose
// inactive text would read as the lane guard) and a user macro (whose name
// would be compared, not its expansion) are refused, not lifted.
__global__ void scan_ifdef_guard(const int *in, int *out) {
  int v = in[threadIdx.x];
  const int lane = threadIdx.x & 31;
  for (int d = 1; d < 32; d <<= 1) {
    const int t = __shfl_up_sync(0xffffffff, v, d);
#ifdef GUARDED
// CHECK: PK5004.cu:[[@LINE-1]]:1: warning: kernel 'scan_ifdef_guard' is not lifted to NKI: __shfl_up_sync: a prefix scan across the lanes, not the recognised block scan: a '#ifdef' line inside a statement: the scan is compared as written [PK5004]
    if (lane >= d)
#endif
      v += t;
  }
  out[threadIdx.x] = v;
}

#define FULL_MASK 0xffff
__global__ void scan_macro_mask(const int *in, int *out) {
  int v = in[threadIdx.x];
  const int lane = threadIdx.x & 31;
  for (int d = 1; d < 32; d <<= 1) {
// CHECK: PK5004.cu:[[@LINE+1]]:34: warning: kernel 'scan_macro_mask' is not lifted to NKI: __shfl_up_sync: a prefix scan across the lanes, not the recognised block scan: macro 'FULL_MASK' inside the kernel: the scan is compared as written, not as expanded [PK5004]
    const int t = __shfl_up_sync(FULL_MASK, v, d);
    if (lane >= d)
      v += t;
  }
  out[threadIdx.x] = v;
}
