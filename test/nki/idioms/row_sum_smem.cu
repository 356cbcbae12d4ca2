// row_sum_smem: out[row] = sum_c in[row][c]; one block per row.
// Idiom: dynamic shared memory (`extern __shared__ float sdata[]`, one float
// per thread), the textbook tree with an unsigned stride
// `for (unsigned s = blockDim.x / 2; s > 0; s >>= 1)`, thread 0 stores.
// EXPECT: lift
#include <cuda_runtime.h>

__global__ void row_sum_smem(float *out, const float *in, int cols) {
  extern __shared__ float sdata[];
  unsigned int tid = threadIdx.x;
  int row = blockIdx.x;
  float acc = 0.0f;
  for (int c = tid; c < cols; c += blockDim.x)
    acc += in[row * cols + c];
  sdata[tid] = acc;
  __syncthreads();
  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[row] = sdata[0];
}
