// PK1004: device functions whose HIP name differs are renamed
// (rules/cuda2hip/device.yaml): block-scope atomics become the device-scope
// atomic, __trap() becomes abort(), cuComplex.h functions get their
// hip_complex.h names.  Same-named intrinsics (__ldg, __popc, atomicAdd) stay.
// RUN: rm -rf %t && %pk port -q --to hip --report %t/r.json -o %t %s 2>&1 \
// RUN:   | count 0
// RUN: FileCheck %s --match-full-lines --input-file=%t/hip/PK1004.hip
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t/r.json
// REPORT:      "counts": {
// REPORT:        "PK1004": 6
#include <cuda_runtime.h>
#include <cuComplex.h>

#define BINS 64

__global__ void histogram(const unsigned *__restrict__ keys, int n,
                          unsigned *__restrict__ global_bins) {
  __shared__ unsigned bins[BINS];
  for (int b = threadIdx.x; b < BINS; b += blockDim.x)
    bins[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    atomicAdd_block(&bins[__ldg(&keys[i]) % BINS], 1u);
// CHECK:    atomicAdd(&bins[__ldg(&keys[i]) % BINS], 1u);
// REPORT:      "line": [[@LINE-2]],
// REPORT-NEXT: "offset": {{[0-9]+}},
// REPORT-NEXT: "replacement": "atomicAdd",
// REPORT-NEXT: "rule": "PK1004",
// REPORT-NEXT: "why": "atomicAdd_block -> atomicAdd (HIP 5.2.3 has no block-scope atomics; the device-scope atomic is at least as strong)"
  __syncthreads();
  for (int b = threadIdx.x; b < BINS; b += blockDim.x)
    atomicAdd(&global_bins[b], bins[b] + __popc(bins[b]) * 0u);
// CHECK:    atomicAdd(&global_bins[b], bins[b] + __popc(bins[b]) * 0u);
}

__device__ cuFloatComplex twiddle(cuFloatComplex z, float re, float im) {
  return cuCmulf(z, make_cuFloatComplex(re, im));
// CHECK:  return hipCmulf(z, make_hipFloatComplex(re, im));
// REPORT:      "line": [[@LINE-2]],
// REPORT-NEXT: "offset": {{[0-9]+}},
// REPORT-NEXT: "replacement": "hipCmulf",
// REPORT-NEXT: "rule": "PK1004",
}

__global__ void rotate(cuFloatComplex *z, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    __trap();
// CHECK:    abort();
// REPORT:      "line": [[@LINE-2]],
// REPORT-NEXT: "offset": {{[0-9]+}},
// REPORT-NEXT: "replacement": "abort",
// REPORT-NEXT: "rule": "PK1004",
// REPORT-NEXT: "why": "__trap -> abort (abort() in HIP device code ends the kernel with a trap like __trap())"
  z[i] = twiddle(z[i], 0.f, 1.f);
  if (cuCabsf(z[i]) > 1e30f)
// CHECK:  if (hipCabsf(z[i]) > 1e30f)
    __trap();
}
