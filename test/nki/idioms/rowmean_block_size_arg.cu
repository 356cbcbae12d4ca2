// rowmean_block_size_arg: mean[r] = the mean of row r of x, one block per
// row, the block size passed as an argument and the tree written with a
// descending `stride >= 1` loop.
// Idiom: `block_size` in place of blockDim.x (the launch passes the same
// number).  The model binds it to the block's size; the output asserts that
// the launch passes it so (a case passes another value: the assert fires).
// EXPECT: lift
#include <cuda_runtime.h>

__global__ void rowmean_block_size_arg(float *mean, const float *x, int C,
                                       int block_size) {
  extern __shared__ float part[];
  const float *row = x + blockIdx.x * C;
  float s = 0.0f;
  for (int i = threadIdx.x; i < C; i += block_size)
    s += row[i];
  part[threadIdx.x] = s;
  __syncthreads();
  for (int stride = block_size / 2; stride >= 1; stride /= 2) {
    if (threadIdx.x < stride)
      part[threadIdx.x] += part[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    mean[blockIdx.x] = part[0] / C;
}
