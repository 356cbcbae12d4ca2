// softmax_block_warps: row softmax, one block per row (rows = gridDim.x).
// Idiom: xor-butterfly warp reductions in helper functions, then a block step
// through `__shared__ float warpSums[32]` read back by warp 0, the row value
// broadcast through warpSums[0].
// EXPECT: lift
#include <cuda_runtime.h>
#include <float.h>

__device__ float warpReduceMax(float v) {
  for (int o = 16; o > 0; o /= 2)
    v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, o));
  return v;
}

__device__ float warpReduceSum(float v) {
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_xor_sync(0xffffffff, v, o);
  return v;
}

__global__ void softmax_block_warps(const float *input, float *output, int C) {
  __shared__ float warpSums[32];
  int row = blockIdx.x;
  int tid = threadIdx.x;
  int lane = tid % 32;
  int warpId = tid / 32;
  int numWarps = blockDim.x / 32;
  const float *x = input + (size_t)row * C;
  float *y = output + (size_t)row * C;

  float maxv = -FLT_MAX;
  for (int i = tid; i < C; i += blockDim.x)
    maxv = fmaxf(maxv, x[i]);
  maxv = warpReduceMax(maxv);
  if (lane == 0)
    warpSums[warpId] = maxv;
  __syncthreads();
  if (warpId == 0) {
    float t = lane < numWarps ? warpSums[lane] : -FLT_MAX;
    t = warpReduceMax(t);
    if (lane == 0)
      warpSums[0] = t;
  }
  __syncthreads();
  float rowMax = warpSums[0];
  __syncthreads();

  float sum = 0.0f;
  for (int i = tid; i < C; i += blockDim.x)
    sum += expf(x[i] - rowMax);
  sum = warpReduceSum(sum);
  if (lane == 0)
    warpSums[warpId] = sum;
  __syncthreads();
  if (warpId == 0) {
    float t = lane < numWarps ? warpSums[lane] : 0.0f;
    t = warpReduceSum(t);
    if (lane == 0)
      warpSums[0] = t;
  }
  __syncthreads();
  float rowSum = warpSums[0];

  for (int i = tid; i < C; i += blockDim.x)
    y[i] = expf(x[i] - rowMax) / rowSum;
}
