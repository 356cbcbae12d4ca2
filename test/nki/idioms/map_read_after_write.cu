// map_read_after_write: y[i] = x[i] + 1, then z[i] = 2 * y[i] read back
// from y after the store: the thread reads the value it stored (the kernel
// model forwards a thread's own stores; the tile program never reads y).
// EXPECT: lift
#include <cuda_runtime.h>

__global__ void map_read_after_write(float *y, float *z, const float *x,
                                     int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i] = x[i] + 1.0f;
    z[i] = 2.0f * y[i];
  }
}
