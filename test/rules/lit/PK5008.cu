// PK5008: a pointer parameter whose shape is not recovered: never accessed,
// or indexed as 2-D with a row pitch that is not the x extent.
// RUN: rm -rf %t && %pk port -q --to nki -o %t %s 2>&1 | FileCheck %s
#include <cuda_runtime.h>

// CHECK: PK5008.cu:[[@LINE+1]]:53: warning: kernel 'unused_ptr' is not lifted to NKI: pointer parameter 'spare' is never accessed as a tile, so its shape is not known [PK5008]
__global__ void unused_ptr(float *out, const float *spare, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 2.0f;
}

__global__ void pitched(float *out, int rows, int cols, int pitch) {
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  const int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < rows && c < cols)
// CHECK: PK5008.cu:[[@LINE+1]]:5: warning: kernel 'pitched' is not lifted to NKI: 'out' is indexed with a row pitch (pitch) that is not the x extent (cols): its 2-D shape is not recovered [PK5008]
    out[r * pitch + c] = 0.0f;
}
// CHECK-NOT: warning
