// PK1031: ROCm 5's hipMallocPitch has only the void ** declaration; a typed
// cudaMallocPitch(&floatPtr, ...) gets the (void **) cast CUDA's template
// makes under --rocm-version=5 (ROCm 6 has the typed form: left as is).
// RUN: rm -rf %t && %pk port -q --cuda-path=none --to hip --rocm-version=5 -o %t/5 %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DIAG --allow-empty
// RUN: FileCheck %s --match-full-lines --input-file=%t/5/hip/PK1031.hip
// RUN: %pk port -q --cuda-path=none --to hip --report %t/r.json -o %t/6 %s
// RUN: FileCheck %s --match-full-lines --check-prefix=ROCM6 --input-file=%t/6/hip/PK1031.hip
// RUN: %pk port -q --cuda-path=none --to hip --rocm-version=5 --report %t/r5.json -o %t/5b %s
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t/r5.json
// REPORT: "rule": "PK1031",
// REPORT-NEXT: "why": "ROCm 5's hipMallocPitch takes void ** only (its typed template arrived in ROCm 6): the cast CUDA's template makes"
// DIAG-NOT: warning
#include <cuda_runtime.h>

int alloc(float **rows, int n) {
  float *grid;
  size_t pitch;
  cudaMallocPitch(&grid, &pitch, 100 * sizeof(float), 50);
// CHECK:  hipMallocPitch((void **)&grid, &pitch, 100 * sizeof(float), 50);
// ROCM6:  hipMallocPitch(&grid, &pitch, 100 * sizeof(float), 50);
  cudaMallocPitch(rows + n, &pitch, 8, 8);
// CHECK:  hipMallocPitch((void **)(rows + n), &pitch, 8, 8);
#define CHECK(x) (void)(x)
  CHECK(cudaMallocPitch(&grid, &pitch, 8, 8));
// CHECK:  CHECK(hipMallocPitch((void **)&grid, &pitch, 8, 8));
  void *raw;
  cudaMallocPitch(&raw, &pitch, 8, 8);
// CHECK:  hipMallocPitch(&raw, &pitch, 8, 8);
  return grid != nullptr;
}
