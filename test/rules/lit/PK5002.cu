// PK5002: an atomic read-modify-write is not lifted (here an integer count
// accumulated by every block into one address); the kernel is left out of
// the .py (its header names it) while the other kernel of the file is still
// emitted.
// RUN: rm -rf %t && %pk port -q --to nki -o %t %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DIAG
// RUN: FileCheck %s --input-file=%t/nki/PK5002.py
#include <cuda_runtime.h>

__global__ void count_positive(const float *x, int *count, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && x[i] > 0.0f)
// DIAG: PK5002.cu:[[@LINE+1]]:5: warning: kernel 'count_positive' is not lifted to NKI: atomicAdd: the accumulation of every block into one address {{.*}}: an integer accumulation {{.*}} [PK5002]
    atomicAdd(count, 1);
}

__global__ void scale(float *y, const float *x, float s, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = x[i] * s;
}
// CHECK: # port-kernel: warning: PK5002.cu:14: kernel 'count_positive' is not lifted to NKI: atomicAdd: {{.*}} [PK5002]
// CHECK-NOT: def count_positive
// CHECK: def scale(x, s, n, grid_x, block_x):
// CHECK: PK_KERNELS = {
// CHECK-NEXT:   "scale": {
