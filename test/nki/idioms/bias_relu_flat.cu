// bias_relu_flat: out[r][c] = max(in[r][c] + bias[c], 0) (a row vector
// broadcast over the rows).
// Idiom: a flat 1-D index over rows * cols elements, the column recovered
// with `idx % cols` to index the bias.
// EXPECT: lift
#include <cuda_runtime.h>

__global__ void bias_relu_flat(float *out, const float *in, const float *bias,
                               int rows, int cols) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < rows * cols) {
    int c = idx % cols;
    out[idx] = fmaxf(in[idx] + bias[c], 0.0f);
  }
}
