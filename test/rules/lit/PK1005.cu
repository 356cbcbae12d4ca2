// PK1005: HIP's launch and function-attribute APIs take the kernel as
// `const void *`, so after the rename (PK1001) the kernel argument is wrapped
// in reinterpret_cast<const void *>(...); arguments that already are
// pointers to void, or already cast, are left alone.
// RUN: rm -rf %t && %pk port -q --to hip --report %t/r.json -o %t %s 2>&1 \
// RUN:   | count 0
// RUN: FileCheck %s --match-full-lines --input-file=%t/hip/PK1005.hip
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t/r.json
// REPORT:      "counts": {
// REPORT:        "PK1005": 4
#include <cuda_runtime.h>

template <int BLOCK, typename T>
__global__ void axpy(T a, const T *x, T *y, int n) {
  int i = blockIdx.x * BLOCK + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

__global__ void fill(float *y, float v) { y[threadIdx.x] = v; }

void configure(float *x, float *y, int n, cudaStream_t stream) {
  cudaFuncSetAttribute(axpy<128, float>,
                       cudaFuncAttributeMaxDynamicSharedMemorySize, 65536);
// CHECK:  hipFuncSetAttribute(reinterpret_cast<const void *>(axpy<128, float>),
// CHECK-NEXT:                       hipFuncAttributeMaxDynamicSharedMemorySize, 65536);
// REPORT:      "line": [[@LINE-4]],
// REPORT:      "replacement": "reinterpret_cast<const void *>(axpy<128, float>)",
// REPORT-NEXT: "rule": "PK1005",
// REPORT-NEXT: "why": "cudaFuncSetAttribute takes the kernel as a template; its HIP counterpart takes the kernel's address as const void *"
  cudaFuncSetCacheConfig(fill, cudaFuncCachePreferL1);
// CHECK:  hipFuncSetCacheConfig(reinterpret_cast<const void *>(fill), hipFuncCachePreferL1);
  cudaFuncAttributes attr;
  cudaFuncGetAttributes(&attr, axpy<128, float>);
// CHECK:  hipFuncGetAttributes(&attr, reinterpret_cast<const void *>(axpy<128, float>));
  float v = 1.f;
  void *args[] = {&y, &v};
  cudaLaunchKernel(fill, dim3(1), dim3(32), args, 0, stream);
// CHECK:  hipLaunchKernel(reinterpret_cast<const void *>(fill), dim3(1), dim3(32), args, 0, stream);
// REPORT:      "line": [[@LINE-2]],
// REPORT:      "replacement": "reinterpret_cast<const void *>(fill)",
// REPORT-NEXT: "rule": "PK1005",
  const void *fn = reinterpret_cast<const void *>(fill);
  cudaLaunchKernel(fn, dim3(1), dim3(32), args, 0, stream);
// CHECK:  hipLaunchKernel(fn, dim3(1), dim3(32), args, 0, stream);
  cudaLaunchKernel((void *)fill, dim3(1), dim3(32), args, 0, stream);
// CHECK:  hipLaunchKernel((void *)fill, dim3(1), dim3(32), args, 0, stream);
}
