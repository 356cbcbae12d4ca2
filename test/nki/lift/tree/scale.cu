// A source tree for `port --to nki` (check_lift.py): two sources and a
// header; one kernel that lifts and one that does not.
#include "common.cuh"

__global__ void scale(float *y, const float *x, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    y[i] = twice(x[i]);
}

__global__ void histogram(const int *bins, int *counts, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&counts[bins[i]], 1);
}
