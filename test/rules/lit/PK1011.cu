// PK1011: when the user's code declares something spelled like an API name
// of the rename tables (here wrappers called cudaMalloc and cudaFree), that
// name is left exactly as written everywhere, macro bodies included, and a
// note says so.  The same holds for HIP input ported back to CUDA.
// RUN: rm -rf %t && %pk port -q --to hip -o %t %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DIAG
// RUN: FileCheck %s --match-full-lines --input-file=%t/hip/PK1011.hip
// RUN: %pk port -q --to cuda -o %t/back %S/Inputs/PK1011/compat.hip 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BACK-DIAG
// RUN: FileCheck %s --match-full-lines --check-prefix=BACK \
// RUN:   --input-file=%t/back/cuda/compat.cu
// BACK-DIAG: compat.hip:7:19: note: 'hipDeviceSynchronize' is declared in your code; left as is (it shadows the HIP API of that name) [PK1011]
// BACK-DIAG: compat.hip:13:48: note: 'hipDeviceSynchronize' is declared in your code; left as is (it shadows the HIP API of that name) [PK1011]
// BACK:      inline cudaError_t hipDeviceSynchronize(int device) {
// BACK-NEXT:   cudaError_t e = cudaSetDevice(device);
// BACK-NEXT:   return e == cudaSuccess ? cudaStreamSynchronize(0) : e;
// BACK:      cudaError_t finish(int device) { return compat::hipDeviceSynchronize(device); }
#include <cuda_runtime.h>

namespace pool {
// Stream-ordered allocation behind the familiar names.
// DIAG: PK1011.cu:[[@LINE+1]]:20: note: 'cudaMalloc' is declared in your code; left as is (it shadows the CUDA API of that name) [PK1011]
inline cudaError_t cudaMalloc(void **p, size_t bytes, cudaStream_t s) {
// CHECK: // port-kernel: note: 'cudaMalloc' is declared in your code; left as is (it shadows the CUDA API of that name) [PK1011]
// CHECK-NEXT: inline hipError_t cudaMalloc(void **p, size_t bytes, hipStream_t s) {
  return cudaMallocAsync(p, bytes, s);
// CHECK:  return hipMallocAsync(p, bytes, s);
}
// DIAG: PK1011.cu:[[@LINE+1]]:20: note: 'cudaFree' is declared in your code; left as is (it shadows the CUDA API of that name) [PK1011]
inline cudaError_t cudaFree(void *p, cudaStream_t s) { return cudaFreeAsync(p, s); }
// CHECK: inline hipError_t cudaFree(void *p, hipStream_t s) { return hipFreeAsync(p, s); }
} // namespace pool

// DIAG: PK1011.cu:[[@LINE+1]]:35: note: 'cudaMalloc' is declared in your code; left as is (it shadows the CUDA API of that name) [PK1011]
#define POOL_ALLOC(p, n, s) pool::cudaMalloc((void **)&(p), (n), (s))
// CHECK: #define POOL_ALLOC(p, n, s) pool::cudaMalloc((void **)&(p), (n), (s))

__global__ void fill(float *x, float v) { x[threadIdx.x] = v; }

void run(cudaStream_t s) {
  float *buf = nullptr;
  POOL_ALLOC(buf, 256 * sizeof(float), s);
  fill<<<1, 256, 0, s>>>(buf, 1.f);
// DIAG: PK1011.cu:[[@LINE+1]]:9: note: 'cudaFree' is declared in your code; left as is (it shadows the CUDA API of that name) [PK1011]
  pool::cudaFree(buf, s);
// CHECK: // port-kernel: note: 'cudaFree' is declared in your code; left as is (it shadows the CUDA API of that name) [PK1011]
// CHECK-NEXT:  pool::cudaFree(buf, s);
  cudaStreamSynchronize(s);
// CHECK:  hipStreamSynchronize(s);
}
// DIAG-NOT: PK1011
