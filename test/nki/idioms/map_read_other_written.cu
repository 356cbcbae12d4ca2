// map_read_other_written: y[i] = x[i] + 1, then z[i] = y[i + 1]: the
// element that the next thread stores, read without any ordering (a race
// in CUDA).  Only a thread's own stores are forwarded: refused at the read.
// EXPECT: refuse PK5006 "at an offset (1) from the thread's element"
#include <cuda_runtime.h>

__global__ void map_read_other_written(float *y, float *z, const float *x,
                                       int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n - 1) {
    y[i] = x[i] + 1.0f;
    z[i] = y[i + 1]; // EXPECT-AT
  }
}
