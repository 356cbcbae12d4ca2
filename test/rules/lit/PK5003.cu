// PK5003: a store whose index reads memory (a scatter) is not lifted.
// RUN: rm -rf %t && %pk port -q --to nki -o %t %s 2>&1 | FileCheck %s
#include <cuda_runtime.h>

__global__ void scatter(float *out, const float *in, const int *perm, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
// CHECK: PK5003.cu:[[@LINE+1]]:5: warning: kernel 'scatter' is not lifted to NKI: the index of this access depends on data read at run time (a gather or scatter): a tile access must be a rectangle known when the kernel is traced [PK5003]
    out[perm[i]] = in[i];
}
// CHECK-NOT: warning
