// transpose_flat_relu: out = max(in^T, 0) (in is rows x cols, out is
// cols x rows).
// Idiom: the padded tile as a flat array tile[32 * 33] indexed by hand
// (row * 33 + column), 32 x 8 threads with four rows each, the bounds
// spelled `size > coordinate`, fmaxf on the store.
// EXPECT: lift
#include <cuda_runtime.h>

#define TILE 32
#define ROWS 8
#define PITCH (TILE + 1)

__global__ void transpose_flat_relu(float *out, const float *in, int rows,
                                    int cols) {
  __shared__ float tile[TILE * PITCH];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    if (cols > x && rows > y + j)
      tile[(threadIdx.y + j) * PITCH + threadIdx.x] = in[(y + j) * cols + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    if (rows > x && cols > y + j)
      out[(y + j) * rows + x] =
          fmaxf(tile[threadIdx.x * PITCH + threadIdx.y + j], 0.0f);
}
