// PK1033: a name of CUDA's headers that no table or rule translates is
// reported where it is used (it used to pass into the HIP output silently):
// a function, an enumerator, a macro, a type, the driver API.
// RUN: rm -rf %t && %pk port -q --cuda-path=none --to hip --extra-arg=-DCUDA_ENABLED=1 \
// RUN:   --report %t/r.json -o %t %s 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: FileCheck %s --match-full-lines --input-file=%t/hip/PK1033.hip
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t/r.json
// REPORT: "rule": "PK1033"
// HIP input ported to CUDA: HIP's names the reverse tables lack.
// RUN: %pk port -q --to cuda -o %t/back %S/Inputs/PK1033/back.hip 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BACK
// BACK: back.hip:6:3: warning: 'hipExtMallocWithFlags' (hip_runtime_api.h) is not translated: {{.*}} CUDA's headers do not declare [PK1033]
// BACK: back.hip:6:43: warning: 'hipMallocSignalMemory' (hip_runtime_api.h) is not translated: {{.*}} [PK1033]
// BACK-NOT: warning
#include <cuda.h>
#include <cuda_runtime.h>

// The program's own names with the API's prefixes are the program's.
#define cudaCheck(x) ((x) == cudaSuccess)
struct Pool { cudaStream_t cudaStream; };
static int cudaReady(int cudaOk) { return cudaOk + CUDA_ENABLED; }

__global__ void scale(float *p) { p[threadIdx.x] *= 2.0f; }

int main() {
  cudaStream_t s;
  cudaStreamCreate(&s);
// DIAG: PK1033.cu:[[@LINE+1]]:3: warning: 'cudaInitDevice' (cuda_runtime_api.h) is not translated: no table or rule of port-kernel knows a HIP counterpart; the output keeps the name, which HIP's headers do not declare [PK1033]
  cudaInitDevice(0, 0, 0);
// CHECK: // port-kernel: warning: 'cudaInitDevice' (cuda_runtime_api.h) is not translated: {{.*}} [PK1033]
// CHECK-NEXT:   cudaInitDevice(0, 0, 0);
// An enumerator, a macro, a type and a driver-API function and enumerator:
// DIAG: PK1033.cu:[[@LINE+1]]:19: warning: 'cudaErrorInvalidPc' (driver_types.h) is not translated
  cudaError_t e = cudaErrorInvalidPc;
// DIAG: PK1033.cu:[[@LINE+1]]:35: warning: 'cudaDeviceMask' (driver_types.h) is not translated
  unsigned flags = cudaCheck(e) ? cudaDeviceMask : 0;
// DIAG: PK1033.cu:[[@LINE+1]]:3: warning: 'cudaKernel_t' (driver_types.h) is not translated
  cudaKernel_t kernel = nullptr;
// DIAG: PK1033.cu:[[@LINE+2]]:7: warning: 'cuInit' (cuda.h) is not translated
// DIAG: PK1033.cu:[[@LINE+1]]:20: warning: 'CUDA_SUCCESS' (cuda.h) is not translated
  if (cuInit(0) != CUDA_SUCCESS) return 1;
  // Translated names, names in comments and strings (cudaInitDevice),
  // members and the program's own names are not reported.
  Pool pool{s};
  const char *msg = "cudaInitDevice failed";
  float *d;
  cudaMalloc(&d, 128);
// CHECK: hipMalloc(&d, 128);
  scale<<<1, 32>>>(d);
  // A name a table flags already (PK1010) is not reported twice.
// DIAG: PK1033.cu:[[@LINE+1]]:3: warning: 'cudaEventRecordWithFlags' has no HIP counterpart: {{.*}} [PK1010]
  cudaEventRecordWithFlags(nullptr, pool.cudaStream, 0);
  return cudaReady(flags + (kernel != nullptr) + (msg != nullptr));
}
// DIAG-NOT: warning
