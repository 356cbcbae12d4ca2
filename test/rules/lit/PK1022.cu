// PK1022: the cuRAND host and device APIs become hipRAND's.
// RUN: rm -rf %t && %pk port -q --cuda-path=none --to hip --report %t/r.json -o %t %s 2>&1 \
// RUN:   | count 0
// RUN: FileCheck %s --match-full-lines --input-file=%t/hip/PK1022.hip
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t/r.json
#include <curand.h>
#include <curand_kernel.h>

__global__ void noise(float *out, unsigned long long seed) {
  curandState_t state;
// CHECK:  hiprandState_t state;
  curand_init(seed, threadIdx.x, 0, &state);
// CHECK:  hiprand_init(seed, threadIdx.x, 0, &state);
  out[threadIdx.x] = curand_normal(&state) + curand_uniform(&state);
// CHECK:  out[threadIdx.x] = hiprand_normal(&state) + hiprand_uniform(&state);
}

int fill(float *d, size_t n) {
  curandGenerator_t gen;
// CHECK:  hiprandGenerator_t gen;
  curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_PHILOX4_32_10);
// CHECK:  hiprandCreateGenerator(&gen, HIPRAND_RNG_PSEUDO_PHILOX4_32_10);
// REPORT: "replacement": "hiprandCreateGenerator",
// REPORT-NEXT: "rule": "PK1022",
// REPORT-NEXT: "why": "curandCreateGenerator -> hiprandCreateGenerator (hipRAND draws the same distributions; the numbers of a given seed are not guaranteed to equal cuRAND's)"
  curandSetPseudoRandomGeneratorSeed(gen, 42ULL);
// CHECK:  hiprandSetPseudoRandomGeneratorSeed(gen, 42ULL);
  curandStatus_t st = curandGenerateNormal(gen, d, n, 0.0f, 1.0f);
// CHECK:  hiprandStatus_t st = hiprandGenerateNormal(gen, d, n, 0.0f, 1.0f);
  curandDestroyGenerator(gen);
// CHECK:  hiprandDestroyGenerator(gen);
  return st == CURAND_STATUS_SUCCESS ? 0 : 1;
// CHECK:  return st == HIPRAND_STATUS_SUCCESS ? 0 : 1;
}
