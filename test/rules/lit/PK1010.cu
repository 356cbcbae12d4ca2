// PK1010: a CUDA name or header that a mapping table marks `unsupported` (no
// HIP 5.2.3 counterpart) is left in place and reported with the table's
// reason, so the HIP compiler rejects it loudly instead of a guess.  Not
// reported for the CUDA target.
// RUN: rm -rf %t && %pk port -q --to hip -o %t %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DIAG
// RUN: FileCheck %s --match-full-lines --input-file=%t/hip/PK1010.hip
// RUN: %pk port -q --to cuda -o %t/c %s 2>&1 | count 0
// RUN: %pk port -q --to hip --rocm-version=5 -o %t/r5 %s 2>&1 | FileCheck %s --check-prefix=R5
#include <cuda_runtime.h>
#include <cublas_v2.h>
// A toolkit header the header table does not know: flagged, kept.
// DIAG: PK1010.cu:[[@LINE+1]]:1: warning: header <cuda_occupancy.h> of the CUDA toolkit has no HIP counterpart in the header table; the include is kept and will not be found on a ROCm system [PK1010]
#include <cuda_occupancy.h>
// CHECK: #include <cuda_occupancy.h>

__global__ void backoff(int *flag, unsigned *out) {
  unsigned ns = 8;
  while (atomicCAS(flag, 0, 1) != 0) {
// DIAG: PK1010.cu:[[@LINE+1]]:5: warning: '__nanosleep' has no HIP counterpart: HIP 5.2.3 has no timed sleep; __builtin_amdgcn_s_sleep takes a coarse cycle count instead [PK1010]
    __nanosleep(ns);
// CHECK: // port-kernel: warning: '__nanosleep' has no HIP counterpart: HIP 5.2.3 has no timed sleep; __builtin_amdgcn_s_sleep takes a coarse cycle count instead [PK1010]
// CHECK-NEXT: __nanosleep(ns);
    ns = ns < 256 ? ns * 2 : ns;
  }
// DIAG: PK1010.cu:[[@LINE+1]]:21: warning: '__vadd4' has no HIP counterpart: SIMD-in-a-word intrinsics are not in HIP 5.2.3 [PK1010]
  out[blockIdx.x] = __vadd4(out[blockIdx.x], 0x01010101u);
// CHECK:  out[blockIdx.x] = __vadd4(out[blockIdx.x], 0x01010101u);
  atomicExch(flag, 0);
}

void setup(cudaStream_t stream, cudaEvent_t ev) {
// ROCm 6 has hipDeviceSetLimit and hipLimitStackSize (versioned spellings);
// ROCm 5.2 neither: flagged there.
// R5: PK1010.cu:[[@LINE+2]]:3: warning: 'cudaDeviceSetLimit' has no HIP counterpart: HIP 5.2.3 declares no hipDeviceSetLimit; stack and heap limits are not settable through the runtime [PK1010]
// R5: PK1010.cu:[[@LINE+1]]:22: warning: 'cudaLimitStackSize' has no HIP counterpart: HIP 5.2.3 has no stack-size limit enumerator [PK1010]
  cudaDeviceSetLimit(cudaLimitStackSize, 4096);
// CHECK: hipDeviceSetLimit(hipLimitStackSize, 4096);
// DIAG: PK1010.cu:[[@LINE+2]]:36: warning: 'cudaDevAttrGpuOverlap' has no HIP counterpart: HIP has no hipDeviceAttributeGpuOverlap; AMD GPUs copy while they compute (hipDeviceAttributeAsyncEngineCount counts the copy engines) [PK1010]
  int overlap;
  cudaDeviceGetAttribute(&overlap, cudaDevAttrGpuOverlap, 0);
// CHECK: // port-kernel: warning: 'cudaDevAttrGpuOverlap' has no HIP counterpart: HIP has no hipDeviceAttributeGpuOverlap; AMD GPUs copy while they compute (hipDeviceAttributeAsyncEngineCount counts the copy engines) [PK1010]
// CHECK-NEXT: hipDeviceGetAttribute(&overlap, cudaDevAttrGpuOverlap, 0);
// DIAG: PK1010.cu:[[@LINE+2]]:3: warning: 'cudaEventRecordWithFlags' has no HIP counterpart: HIP 5.2.3 has no hipEventRecordWithFlags [PK1010]
// DIAG: PK1010.cu:[[@LINE+1]]:40: warning: 'cudaEventRecordExternal' (driver_types.h) is not translated: {{.*}} [PK1033]
  cudaEventRecordWithFlags(ev, stream, cudaEventRecordExternal);
// CHECK: cudaEventRecordWithFlags(ev, stream, cudaEventRecordExternal);
  cudaMalloc(nullptr, 0);
// CHECK: hipMalloc(nullptr, 0);
// A function only ROCm 6 has, with no table entry: renamed for ROCm 6, and
// for ROCm 5 reported as untranslated (PK1033).
  int dev = 0;
  cudaStreamGetDevice(stream, &dev);
// CHECK: hipStreamGetDevice(stream, &dev);
// R5: PK1010.cu:[[@LINE-2]]:3: warning: 'cudaStreamGetDevice' (cuda_runtime_api.h) is not translated: {{.*}} [PK1033]
}

// A cuBLAS enumerator hipBLAS has no counterpart for (cuBLAS itself is
// translated, PK1021).
void blas(cublasHandle_t h) {
// DIAG: PK1010.cu:[[@LINE+1]]:24: warning: 'CUBLAS_TENSOR_OP_MATH' has no HIP counterpart: deprecated in cuBLAS 11; rocBLAS uses matrix cores without a math mode: use HIPBLAS_DEFAULT_MATH [PK1010]
  cublasSetMathMode(h, CUBLAS_TENSOR_OP_MATH);
// CHECK: hipblasSetMathMode(h, CUBLAS_TENSOR_OP_MATH);
}
// DIAG-NOT: warning
