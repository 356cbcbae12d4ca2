// scale_rows: out[r][c] = in[r][c] * rowScale[r].
// Idiom: one block per row (row = blockIdx.x), a block-stride loop over the
// columns, the per-row scalar read once into a local.
// EXPECT: lift
#include <cuda_runtime.h>

__global__ void scale_rows(float *out, const float *in, const float *rowScale,
                           int cols) {
  int row = blockIdx.x;
  const float s = rowScale[row];
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    out[row * cols + c] = in[row * cols + c] * s;
}
