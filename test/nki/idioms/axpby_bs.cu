// axpby_bs: z[i] = a * x[i] + b * y[i].
// Idiom: the block size passed as a kernel parameter (blockSize) instead of
// reading blockDim.x; the launch uses blockSize threads per block.
// EXPECT: lift
#include <cuda_runtime.h>

__global__ void axpby_bs(float *z, const float *x, const float *y, float a,
                         float b, int n, int blockSize) {
  int i = blockIdx.x * blockSize + threadIdx.x;
  if (i < n)
    z[i] = a * x[i] + b * y[i];
}
