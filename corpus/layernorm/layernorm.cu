// LayerNorm over the last dimension, one block per row.
// y = (x - mean) / sqrt(var + eps) * gamma + beta; mean and rstd are saved
// per row for the backward pass.
#include <cuda_runtime.h>

#include "../common/warp_reduce.cuh"

__global__ void layernorm_fwd(const float *__restrict__ x,
                              const float *__restrict__ gamma,
                              const float *__restrict__ beta,
                              float *__restrict__ y, float *__restrict__ mean,
                              float *__restrict__ rstd, int cols, float eps) {
  const int row = blockIdx.x;
  const float *xr = x + (size_t)row * cols;
  float *yr = y + (size_t)row * cols;

  float s = 0.0f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    s += xr[c];
  const float mu = blockReduceSum(s) / cols;

  float ss = 0.0f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) {
    const float d = xr[c] - mu;
    ss += d * d;
  }
  const float var = blockReduceSum(ss) / cols;
  const float r = rsqrtf(var + eps);

  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    yr[c] = (xr[c] - mu) * r * gamma[c] + beta[c];

  if (threadIdx.x == 0) {
    mean[row] = mu;
    rstd[row] = r;
  }
}
