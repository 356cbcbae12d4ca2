// Attention probabilities P = softmax(scale * Q K^T), one block per query
// row.  The query row is staged in shared memory; the seqK scores live in
// dynamic shared memory (shared_bytes = seqK * sizeof(float)).  Row max and
// row sum use warp shuffles plus a per-warp scratch array.
#include <cuda_runtime.h>
#include <float.h>

#define WARP_SIZE 32
#define MAX_HEAD_DIM 128

__device__ __forceinline__ float warp_max(float v) {
  for (int o = WARP_SIZE / 2; o > 0; o /= 2)
    v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, o));
  return v;
}

__device__ __forceinline__ float warp_sum(float v) {
  for (int o = WARP_SIZE / 2; o > 0; o /= 2)
    v += __shfl_xor_sync(0xffffffff, v, o);
  return v;
}

__global__ void attention_scores(const float *__restrict__ Q,
                                 const float *__restrict__ Kmat,
                                 float *__restrict__ P, int seqQ, int seqK,
                                 int headDim, float scale) {
  extern __shared__ float scores[];
  __shared__ float q[MAX_HEAD_DIM];
  __shared__ float red[WARP_SIZE];

  const int row = blockIdx.x;
  const int lane = threadIdx.x % WARP_SIZE;
  const int warp = threadIdx.x / WARP_SIZE;
  const int numWarps = blockDim.x / WARP_SIZE;
  if (row >= seqQ)
    return;

  for (int d = threadIdx.x; d < headDim; d += blockDim.x)
    q[d] = Q[row * headDim + d];
  __syncthreads();

  // Scores and the running maximum.
  float localMax = -FLT_MAX;
  for (int j = threadIdx.x; j < seqK; j += blockDim.x) {
    const float *k = Kmat + j * headDim;
    float dot = 0.0f;
    for (int d = 0; d < headDim; ++d)
      dot += q[d] * k[d];
    dot *= scale;
    scores[j] = dot;
    localMax = fmaxf(localMax, dot);
  }
  localMax = warp_max(localMax);
  if (lane == 0)
    red[warp] = localMax;
  __syncthreads();
  float rowMax = -FLT_MAX;
  for (int w = 0; w < numWarps; ++w)
    rowMax = fmaxf(rowMax, red[w]);
  __syncthreads(); // red is reused below

  float localSum = 0.0f;
  for (int j = threadIdx.x; j < seqK; j += blockDim.x) {
    const float e = expf(scores[j] - rowMax);
    scores[j] = e;
    localSum += e;
  }
  localSum = warp_sum(localSum);
  if (lane == 0)
    red[warp] = localSum;
  __syncthreads();
  float rowSum = 0.0f;
  for (int w = 0; w < numWarps; ++w)
    rowSum += red[w];

  const float inv = 1.0f / rowSum;
  for (int j = threadIdx.x; j < seqK; j += blockDim.x)
    P[row * seqK + j] = scores[j] * inv;
}
