// RMSNorm with half-precision activations and float weights, one block per
// row: out = x / sqrt(mean(x^2) + eps) * weight.  Accumulation is in float.
#include <cuda_runtime.h>
#include <cuda_fp16.h>

#define WARP_SIZE 32

__global__ void rmsnorm_f16(__half *__restrict__ out,
                            const __half *__restrict__ in,
                            const float *__restrict__ weight, int cols,
                            float eps) {
  __shared__ float warpSums[WARP_SIZE];
  __shared__ float rstdShared[1];

  const int lane = threadIdx.x % WARP_SIZE;
  const int warp = threadIdx.x / WARP_SIZE;
  const int numWarps = blockDim.x / WARP_SIZE;
  const __half *x = in + (size_t)blockIdx.x * cols;
  __half *y = out + (size_t)blockIdx.x * cols;

  float ss = 0.0f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) {
    const float v = __half2float(x[c]);
    ss += v * v;
  }
#pragma unroll
  for (int mask = 16; mask >= 1; mask >>= 1)
    ss += __shfl_xor_sync(0xffffffff, ss, mask);
  if (lane == 0)
    warpSums[warp] = ss;
  __syncthreads();

  if (warp == 0) {
    float t = lane < numWarps ? warpSums[lane] : 0.0f;
#pragma unroll
    for (int mask = 16; mask >= 1; mask >>= 1)
      t += __shfl_xor_sync(0xffffffff, t, mask);
    if (lane == 0)
      rstdShared[0] = rsqrtf(t / cols + eps);
  }
  __syncthreads();

  const float rstd = rstdShared[0];
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    y[c] = __float2half(__half2float(x[c]) * rstd * weight[c]);
}
