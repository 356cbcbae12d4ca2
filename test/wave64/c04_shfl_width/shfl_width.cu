// Class 4: shuffles that rely on the 32-lane default width: a neighbour
// difference with __shfl_down_sync(.., 1) (the last lane keeps its own value)
// and a broadcast of lane 0 with __shfl_sync(.., 0).
#include <cuda_runtime.h>

__global__ void neighbour_diff(const float *__restrict__ x,
                               float *__restrict__ diff,
                               float *__restrict__ first) {
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  const float v = x[gid];
  const float next = __shfl_down_sync(0xffffffff, v, 1);
  diff[gid] = next - v;
  first[gid] = __shfl_sync(0xffffffff, v, 0);
}
