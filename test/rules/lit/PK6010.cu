// PK6010: runtime functions the CUDA toolkit removed become their current
// forms (rules/cuda-legacy/runtime.yaml); those with no replacement are
// flagged; a user function of the same name is not touched.
// RUN: rm -rf %t && %pk port -q --to cuda --report %t/r.json -o %t %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DIAG
// RUN: FileCheck %s --match-full-lines --input-file=%t/cuda/PK6010.cu
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t/r.json
// RUN: not %pk check --to cuda %s 2>&1 | FileCheck %s --check-prefix=CHECKCMD
// The HIP target gives the same calls their HIP forms (rules/cuda2hip):
// RUN: %pk port -q --to hip -o %t/h %s 2> %t/h.log
// RUN: FileCheck %s --check-prefix=HIP --input-file=%t/h/hip/PK6010.hip
// HIP: #define SYNC() hipDeviceSynchronize()
// HIP: hipDeviceReset();
// REPORT:      "counts": {
// REPORT-NEXT:   "PK6010": 8
#include <cuda_runtime.h>

#define SYNC() cudaThreadSynchronize()
// CHECK: #define SYNC() cudaDeviceSynchronize()

namespace mine {
int cudaThreadExit() { return 0; }
}

int main() {
  size_t stack = 0;
  cudaThreadSetLimit(cudaLimitStackSize, 4096);
// CHECK:  cudaDeviceSetLimit(cudaLimitStackSize, 4096);
// CHECKCMD: PK6010.cu:[[@LINE-2]]:3: warning: cudaThreadSetLimit is no longer declared by the CUDA toolkit (nvcc rejects it): port gives cudaDeviceSetLimit [PK6010]
  cudaThreadGetLimit(&stack, cudaLimitStackSize);
// CHECK:  cudaDeviceGetLimit(&stack, cudaLimitStackSize);
  cudaFuncCache c;
  cudaThreadGetCacheConfig(&c);
  cudaThreadSetCacheConfig(cudaFuncCachePreferShared);
// CHECK:  cudaDeviceGetCacheConfig(&c);
// CHECK-NEXT:  cudaDeviceSetCacheConfig(cudaFuncCachePreferShared);
  SYNC();
  cudaError_t (*fn)(void) = &cudaThreadSynchronize;
// CHECK:  cudaError_t (*fn)(void) = &cudaDeviceSynchronize;
  fn();
  double d = 1.0;
  cudaSetDoubleForDevice(&d);
// CHECK: // port-kernel: warning: cudaSetDoubleForDevice is no longer declared by the CUDA toolkit: removed with no replacement: {{.*}} [PK6010]
// CHECK-NEXT:  cudaSetDoubleForDevice(&d);
// DIAG: PK6010.cu:[[@LINE-3]]:3: warning: cudaSetDoubleForDevice is no longer declared by the CUDA toolkit: {{.*}} [PK6010]
  cudaThreadExit();
// CHECK:  cudaDeviceReset();
  return mine::cudaThreadExit();
// CHECK:  return mine::cudaThreadExit();
}
