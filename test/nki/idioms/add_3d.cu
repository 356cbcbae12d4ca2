// add_3d: out = a + 0.5 * b over a depth x rows x cols volume.
// Idiom: 3-D blocks and grid (x, y, z coordinates), early return on any
// coordinate out of range, a linear index computed once.
// EXPECT: lift
#include <cuda_runtime.h>

__global__ void add_3d(float *out, const float *a, const float *b, int depth,
                       int rows, int cols) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  if (x >= cols || y >= rows || z >= depth)
    return;
  int idx = (z * rows + y) * cols + x;
  out[idx] = a[idx] + 0.5f * b[idx];
}
