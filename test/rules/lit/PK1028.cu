// PK1028: CUDA 13's cudaMemPrefetchAsync / cudaMemAdvise (and CUDA 12's _v2
// names) take a cudaMemLocation; HIP's take a device number.  The location
// becomes __pk_memLocationDevice(loc), the prefetch's flags (0 in CUDA) go.
// RUN: rm -rf %t && %pk port -q --to hip -o %t/o %s 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: FileCheck %s --match-full-lines --input-file=%t/o/hip/PK1028.hip
// The bundled declarations (no toolkit) have the _v2 names too.
// RUN: %pk port -q --to hip --cuda-path=none -o %t/b %s 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: FileCheck %s --match-full-lines --input-file=%t/b/hip/PK1028.hip
#include <cuda_runtime.h>
// CHECK: static inline int __pk_memLocationDevice(hipMemLocation loc) {
// CHECK-NEXT:   return loc.type == hipMemLocationTypeDevice ? loc.id : hipInvalidDeviceId;
// CHECK-NEXT: }

void prefetch(float *p, size_t n, int dev, cudaStream_t s, unsigned flags) {
  cudaMemLocation loc = {cudaMemLocationTypeDevice, dev};
// CHECK: hipMemLocation loc = {hipMemLocationTypeDevice, dev};
  cudaMemPrefetchAsync(p, n * sizeof(float), loc, 0, s);
// CHECK: hipMemPrefetchAsync(p, n * sizeof(float), __pk_memLocationDevice(loc), s);
  cudaMemAdvise(p, n * sizeof(float), cudaMemAdviseSetReadMostly, loc);
// CHECK: hipMemAdvise(p, n * sizeof(float), hipMemAdviseSetReadMostly, __pk_memLocationDevice(loc));
  cudaMemPrefetchAsync(p, n, cudaMemLocation{cudaMemLocationTypeDevice, dev + 1}, 0);
// CHECK: hipMemPrefetchAsync(p, n, __pk_memLocationDevice(hipMemLocation{hipMemLocationTypeDevice, dev + 1}));
// DIAG: PK1028.cu:[[@LINE+1]]:3: warning: cudaMemPrefetchAsync: the flags argument is not the constant 0 (CUDA requires 0) and hipMemPrefetchAsync has none: not translated; pass 0 or port the call by hand [PK1028]
  cudaMemPrefetchAsync(p, n, loc, flags, s);
// DIAG: PK1028.cu:[[@LINE+1]]:27: warning: 'cudaMemLocationTypeHost' has no HIP counterpart: HIP's hipMemLocationType has no host location; hipMemPrefetchAsync and hipMemAdvise take hipCpuDeviceId for the host [PK1010]
  cudaMemLocation host = {cudaMemLocationTypeHost, 0};
  cudaMemPrefetchAsync(p, n, host, 0, s);
}
// DIAG-NOT: warning
// The output compiles against ROCm 5.2 and 6.3 but for the call and the host
// location that are flagged (removed first).
// RUN: sed -e '/flags, s);/d' -e '/host/d' %t/o/hip/PK1028.hip > %t/ok.hip
// RUN: %hip5 --offload-host-only %t/ok.hip
// RUN: %hip6 --offload-host-only %t/ok.hip
