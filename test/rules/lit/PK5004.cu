// PK5004: threads that communicate through shuffles or shared memory, in a
// pattern the lifter does not recognise, are reported at the first such
// construct (a scan across lanes, __shfl_up_sync, before other exchanges).
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

// A scan is named as such, before the shared arrays it also uses.
__global__ void warp_scan(const int *in, int *out) {
  __shared__ int totals[32];
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int d = 1; d < 32; d <<= 1) {
// CHECK: PK5004.cu:[[@LINE+1]]:19: warning: kernel 'warp_scan' is not lifted to NKI: __shfl_up_sync: a prefix scan across the lanes (each lane adds the values of the lanes below it); scans are not lifted to tile operations{{.*}} [PK5004]
    const int t = __shfl_up_sync(0xffffffffu, v, d);
    if ((threadIdx.x & 31) >= d)
      v += t;
  }
  if ((threadIdx.x & 31) == 31)
    totals[threadIdx.x >> 5] = v;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = v + totals[0];
}
// CHECK-NOT: warning
