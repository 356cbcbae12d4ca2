// softmax_smem_tree: row softmax, one block of 256 threads per row.
// Idiom: the row max and the row sum each reduced through a shared-memory
// tree `for (s = blockDim.x / 2; s > 0; s >>= 1)` with a barrier per step;
// the result read back from sdata[0].
// EXPECT: lift
#include <cuda_runtime.h>
#include <float.h>

#define BLOCK 256

__global__ void softmax_smem_tree(float *out, const float *in, int rows,
                                  int cols) {
  __shared__ float sdata[BLOCK];
  int row = blockIdx.x;
  int tid = threadIdx.x;
  if (row >= rows)
    return;
  const float *x = in + row * cols;

  float m = -FLT_MAX;
  for (int c = tid; c < cols; c += blockDim.x)
    m = fmaxf(m, x[c]);
  sdata[tid] = m;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] = fmaxf(sdata[tid], sdata[tid + s]);
    __syncthreads();
  }
  float rowMax = sdata[0];
  __syncthreads();

  float sum = 0.0f;
  for (int c = tid; c < cols; c += blockDim.x)
    sum += expf(x[c] - rowMax);
  sdata[tid] = sum;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  float inv = 1.0f / sdata[0];

  for (int c = tid; c < cols; c += blockDim.x)
    out[row * cols + c] = expf(x[c] - rowMax) * inv;
}
