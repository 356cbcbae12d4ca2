// transpose_stage_scale: out = (scale * in + shift)^T (in is rows x cols,
// out is cols x rows).
// Idiom: 2-D blocks of 32 x 16 threads with two rows each over a padded
// 32 x 33 tile; the scale is applied while staging, the shift while
// storing; the bounds are one conjunction with `<=`.
// EXPECT: lift
#include <cuda_runtime.h>

__global__ void transpose_stage_scale(float *out, const float *in,
                                      float scale, float shift, int rows,
                                      int cols) {
  __shared__ float tile[32][33];
  int tx = threadIdx.x, ty = threadIdx.y;
  int bx = blockIdx.x * 32, by = blockIdx.y * 32;
  for (int j = 0; j < 32; j += 16) {
    if (bx + tx <= cols - 1 && by + ty + j <= rows - 1) {
      tile[ty + j][tx] = scale * in[(by + ty + j) * cols + bx + tx];
    }
  }
  __syncthreads();
  for (int j = 0; j < 32; j += 16) {
    if (by + tx <= rows - 1 && bx + ty + j <= cols - 1) {
      out[(bx + ty + j) * rows + by + tx] = tile[tx][ty + j] + shift;
    }
  }
}
