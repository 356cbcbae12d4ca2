// PK6005: a store to shared memory that other lanes of the same warp read in
// a later statement with no barrier gets a __syncwarp after the store.
// RUN: rm -rf %t && %pk port -q --to cuda --report %t/r.json -o %t %s 2>&1 \
// RUN:   | count 0
// RUN: FileCheck %s --match-full-lines --input-file=%t/cuda/PK6005.cu
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t/r.json
// REPORT:      "counts": {
// REPORT-NEXT:   "PK6005": 2

__global__ void neighbours(float *g) {
  __shared__ float s[256];
  __shared__ float part[8];
  int tid = threadIdx.x;
  int lane = tid % 32, warp = tid / 32;
  s[tid] = g[tid];
// CHECK:  s[tid] = g[tid];
// CHECK-NEXT:  __syncwarp();
  float own = s[tid];
  g[tid] = s[tid ^ 1] + own;
  if (lane == 0)
    part[warp] = own;
// CHECK:    part[warp] = own;
// CHECK-NEXT:  __syncwarp();
  g[tid] += part[warp];
  __syncthreads();
  s[tid] = 2.f * own;
  __syncthreads();
  g[tid] += s[(tid + 64) % 256];
// CHECK:  g[tid] += s[(tid + 64) % 256];
}
