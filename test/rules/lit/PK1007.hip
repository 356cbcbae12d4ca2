// PK1007: from HIP input, hipLaunchKernelGGL(kernel, grid, block, shared,
// stream, args...) becomes kernel<<<grid, block, shared, stream>>>(args...)
// with the arguments as written; HIP_KERNEL_NAME(k<T>) is unwrapped.
// RUN: rm -rf %t && %pk port -q --to cuda --report %t/r.json -o %t %s 2>&1 \
// RUN:   | count 0
// RUN: FileCheck %s --match-full-lines --input-file=%t/cuda/PK1007.cu
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t/r.json
// REPORT:      "counts": {
// REPORT:        "PK1007": 3
#include <hip/hip_runtime.h>

template <typename T, int BLOCK>
__global__ void scale(T *x, T a, int n) {
  int i = blockIdx.x * BLOCK + threadIdx.x;
  if (i < n) x[i] *= a;
}

__global__ void add(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

void run(float *da, float *db, float *dc, int n, hipStream_t s) {
  hipLaunchKernelGGL(add, dim3((n + 255) / 256), dim3(256), 0, s, da, db, dc, n);
// CHECK:  add<<<dim3((n + 255) / 256), dim3(256), 0, s>>>(da, db, dc, n);
// REPORT:      "line": [[@LINE-2]],
// REPORT-NEXT: "offset": {{[0-9]+}},
// REPORT-NEXT: "replacement": "add<<<dim3((n + 255) / 256), dim3(256), 0, s>>>(da, db, dc, n)",
// REPORT-NEXT: "rule": "PK1007",
// REPORT-NEXT: "why": "hipLaunchKernelGGL(k, grid, block, shmem, stream, args...) is k<<<grid, block, shmem, stream>>>(args...) in CUDA"
  hipLaunchKernelGGL(HIP_KERNEL_NAME(scale<float, 128>), dim3((n + 127) / 128),
                     dim3(128), 0, 0, dc, 2.0f, n);
// CHECK:  scale<float, 128><<<dim3((n + 127) / 128), dim3(128), 0, 0>>>(dc, 2.0f, n);
// REPORT:      "line": [[@LINE-3]],
// REPORT-NEXT: "offset": {{[0-9]+}},
// REPORT-NEXT: "replacement": "scale<float, 128><<<dim3((n + 127) / 128), dim3(128), 0, 0>>>(dc, 2.0f, n)",
// REPORT-NEXT: "rule": "PK1007",
  hipLaunchKernelGGL(add, 1, 64, 0, 0, da, db, dc, 64);
// CHECK:  add<<<1, 64, 0, 0>>>(da, db, dc, 64);
}
