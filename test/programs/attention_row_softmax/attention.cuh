// Causal self-attention for one (batch, head, query) row per block:
// scores = q . k_j / sqrt(HS) for j <= t, a softmax whose max and sum are
// block all-reduces, then out = sum_j p_j v_j.  Q, K, V and out are laid
// out (B, NH, T, HS); att is (B, NH, T, T) with zeros above the diagonal.
#pragma once
#include "common.cuh"

template <typename S, int BLOCK_SIZE>
__global__ void attentionRowKernel(float *__restrict__ out, float *__restrict__ att,
                                   const S *__restrict__ q, const S *__restrict__ k,
                                   const S *__restrict__ v, int T, int HS) {
  extern __shared__ float smem[]; // scores[T], then the query row[HS]
  float *scores = smem;
  float *qrow = smem + T;

  const int t = blockIdx.x;  // query position
  const int bh = blockIdx.y; // batch * NH + head
  const S *qt = q + ((size_t)bh * T + t) * HS;
  const S *kb = k + (size_t)bh * T * HS;
  const S *vb = v + (size_t)bh * T * HS;
  const float scale = rsqrtf((float)HS);

  for (int i = threadIdx.x; i < HS; i += BLOCK_SIZE)
    qrow[i] = toFloat(qt[i]);
  __syncthreads();

  // Scores of the visible keys and their maximum.
  float localMax = -FLT_MAX;
  for (int j = threadIdx.x; j <= t; j += BLOCK_SIZE) {
    const S *kj = kb + (size_t)j * HS;
    float s = 0.0f;
    for (int i = 0; i < HS; ++i)
      s += qrow[i] * toFloat(kj[i]);
    s *= scale;
    scores[j] = s;
    localMax = fmaxf(localMax, s);
  }
  const float rowMax = blockAllReduce<MaxOp, float, BLOCK_SIZE>(localMax, -FLT_MAX);

  float localSum = 0.0f;
  for (int j = threadIdx.x; j <= t; j += BLOCK_SIZE) {
    float e = expf(scores[j] - rowMax);
    scores[j] = e;
    localSum += e;
  }
  const float rowSum = blockAllReduce<SumOp, float, BLOCK_SIZE>(localSum, 0.0f);
  const float inv = 1.0f / rowSum;

  float *attRow = att + ((size_t)bh * T + t) * T;
  for (int j = threadIdx.x; j < T; j += BLOCK_SIZE) {
    float p = j <= t ? scores[j] * inv : 0.0f;
    if (j <= t)
      scores[j] = p;
    attRow[j] = p;
  }
  __syncthreads();

  float *ot = out + ((size_t)bh * T + t) * HS;
  for (int i = threadIdx.x; i < HS; i += BLOCK_SIZE) {
    float acc = 0.0f;
    for (int j = 0; j <= t; ++j)
      acc += scores[j] * toFloat(vb[(size_t)j * HS + i]);
    ot[i] = acc;
  }
}

// Splits a fused (B, T, 3 * NH * HS) projection into Q, K, V of shape
// (B, NH, T, HS): the permute that precedes attention in GPT-2 code; the
// copies are stored as S (float, or __half to halve the traffic).
template <typename S>
__global__ void permuteQKV(S *q, S *k, S *v, const float *qkv, int B, int T, int NH, int HS) {
  const int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= B * NH * T * HS)
    return;
  const int b = idx / (NH * T * HS);
  int rest = idx % (NH * T * HS);
  const int h = rest / (T * HS);
  rest %= T * HS;
  const int t = rest / HS;
  const int i = rest % HS;
  const int C = NH * HS;
  const size_t src = ((size_t)b * T + t) * 3 * C + h * HS + i;
  q[idx] = fromFloat<S>(qkv[src]);
  k[idx] = fromFloat<S>(qkv[src + C]);
  v[idx] = fromFloat<S>(qkv[src + 2 * C]);
}

template <typename S, int BLOCK_SIZE>
void attentionForward(float *out, float *att, S *q, S *k, S *v, const float *qkv, int B, int T,
                      int NH, int HS) {
  const int total = B * NH * T * HS;
  permuteQKV<S><<<(total + 255) / 256, 256>>>(q, k, v, qkv, B, T, NH, HS);
  CHECK_CUDA(cudaGetLastError());
  dim3 grid(T, B * NH);
  const size_t smemBytes = (T + HS) * sizeof(float);
  // Long sequences need more than the default 48 KiB of dynamic shared memory.
  CHECK_CUDA(cudaFuncSetAttribute(attentionRowKernel<S, BLOCK_SIZE>,
                                  cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smemBytes));
  attentionRowKernel<S, BLOCK_SIZE><<<grid, BLOCK_SIZE, smemBytes>>>(out, att, q, k, v, T, HS);
  CHECK_CUDA(cudaGetLastError());
}
