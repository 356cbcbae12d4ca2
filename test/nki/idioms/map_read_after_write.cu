// map_read_after_write: y[i] = x[i] + 1, then z[i] = 2 * y[i] read back
// from y after the store (the tile program would read y's old contents).
// EXPECT: refuse PK5007 "read after it is written"
#include <cuda_runtime.h>

__global__ void map_read_after_write(float *y, float *z, const float *x,
                                     int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i] = x[i] + 1.0f; // EXPECT-AT
    z[i] = 2.0f * y[i];
  }
}
