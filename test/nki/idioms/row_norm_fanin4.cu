// row_norm_fanin4: out[row] = sqrt(sum_c in[row][c]^2), the L2 norm of each
// row; one block of 256 threads per row.
// Idiom: a shared-memory tree with fan-in 4 (`s >>= 2`, each step adds three
// partners), valid for power-of-4 block sizes.
// EXPECT: lift
#include <cuda_runtime.h>

__global__ void row_norm_fanin4(float *out, const float *in, int rows,
                                int cols) {
  __shared__ float red[256];
  int row = blockIdx.x;
  int tid = threadIdx.x;
  if (row >= rows)
    return;
  float acc = 0.0f;
  for (int c = tid; c < cols; c += blockDim.x) {
    float v = in[row * cols + c];
    acc += v * v;
  }
  red[tid] = acc;
  __syncthreads();
  for (int s = blockDim.x / 4; s > 0; s >>= 2) {
    if (tid < s)
      red[tid] += red[tid + s] + red[tid + 2 * s] + red[tid + 3 * s];
    __syncthreads();
  }
  if (tid == 0)
    out[row] = sqrtf(red[0]);
}
