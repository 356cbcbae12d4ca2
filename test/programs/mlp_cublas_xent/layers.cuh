// Layers of a two-layer classifier: linear layers through cuBLAS with
// row-major activations, bias + ReLU, a fused softmax cross-entropy forward
// and its backward, and the weight/bias gradients of the last layer.
#pragma once
#include "cuda_common.h"

// out (B, OC) = inp (B, C) @ weight^T, weight (OC, C), all row-major.  cuBLAS
// is column-major, so this is out^T (OC, B) = weight (OC, C) x inp^T (C, B).
void matmul_forward(cublasHandle_t handle, float *out, const float *inp, const float *weight,
                    int B, int C, int OC) {
  const float alpha = 1.0f, beta = 0.0f;
  cublasCheck(cublasSgemm(handle, CUBLAS_OP_T, CUBLAS_OP_N, OC, B, C, &alpha, weight, C, inp, C,
                          &beta, out, OC));
}

// dweight (OC, C) += dout^T (OC, B) @ inp (B, C): column-major dweight^T (C, OC) =
// inp^T (C, B) x dout (B, OC).
void matmul_backward_weight(cublasHandle_t handle, float *dweight, const float *dout,
                            const float *inp, int B, int C, int OC) {
  const float one = 1.0f;
  cublasCheck(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_T, C, OC, B, &one, inp, C, dout, OC,
                          &one, dweight, C));
}

template <bool RELU>
__global__ void bias_activation_kernel(float *out, const float *bias, int B, int OC) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < B * OC) {
    float v = out[idx] + bias[idx % OC];
    out[idx] = RELU ? fmaxf(v, 0.0f) : v;
  }
}

// Layer norm over the C features of each of the N rows, in the layout of
// apex's kernels: blockDim (32, ROWS_PER_BLOCK), each 32-thread row of the
// block is a warp that owns one input row; mean and variance come from xor
// butterflies.  In place is allowed (out == inp).
__device__ __forceinline__ float warpAllSum(float v) {
  for (int mask = 16; mask > 0; mask >>= 1)
    v += __shfl_xor_sync(0xffffffff, v, mask, 32);
  return v;
}

__global__ void layernorm_forward_kernel(float *out, float *mean, float *rstd, const float *inp,
                                         const float *weight, const float *bias, int N, int C) {
  const int row = blockIdx.x * blockDim.y + threadIdx.y;
  if (row >= N)
    return;
  const float *x = inp + row * C;
  float sum = 0.0f;
  for (int c = threadIdx.x; c < C; c += blockDim.x)
    sum += x[c];
  const float m = warpAllSum(sum) / C;
  float var = 0.0f;
  for (int c = threadIdx.x; c < C; c += blockDim.x) {
    float d = x[c] - m;
    var += d * d;
  }
  const float s = rsqrtf(warpAllSum(var) / C + 1e-5f);
  for (int c = threadIdx.x; c < C; c += blockDim.x)
    out[row * C + c] = (x[c] - m) * s * weight[c] + bias[c];
  if (threadIdx.x == 0) {
    mean[row] = m;
    rstd[row] = s;
  }
}

// One warp per row of logits (B, V): probs = softmax(logits), losses[b] =
// -log probs[b, target[b]].  Warps come from cooperative groups, as in llm.c.
__global__ void softmax_crossentropy_forward_kernel(float *probs, float *losses,
                                                    const float *logits, const int *targets,
                                                    int B, int V) {
  namespace cg = cooperative_groups;
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  int row = blockIdx.x * warp.meta_group_size() + warp.meta_group_rank();
  if (row >= B)
    return;
  const float *x = logits + row * V;
  float maxval = -INFINITY;
  for (int i = warp.thread_rank(); i < V; i += warp.size())
    maxval = fmaxf(maxval, x[i]);
  maxval = cg::reduce(warp, maxval, cg::greater<float>{});
  float sumval = 0.0f;
  for (int i = warp.thread_rank(); i < V; i += warp.size())
    sumval += expf(x[i] - maxval);
  sumval = cg::reduce(warp, sumval, cg::plus<float>{});
  float norm = 1.0f / sumval;
  for (int i = warp.thread_rank(); i < V; i += warp.size())
    probs[row * V + i] = expf(x[i] - maxval) * norm;
  if (warp.thread_rank() == 0)
    losses[row] = -(x[targets[row]] - maxval - logf(sumval));
}

// dlogits = (probs - onehot(target)) * dloss, dloss = 1 / B for a mean loss.
__global__ void crossentropy_softmax_backward_kernel(float *dlogits, const float *probs,
                                                     const int *targets, int B, int V) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < B * V) {
    int b = i / V, v = i % V;
    float indicator = v == targets[b] ? 1.0f : 0.0f;
    dlogits[i] = (probs[i] - indicator) / (float)B;
  }
}

// dbias[o] += sum over b of dout[b, o]: one block per column tile, a
// shared-memory reduction over the rows.
template <int BLOCK>
__global__ void bias_backward_kernel(float *dbias, const float *dout, int B, int OC) {
  __shared__ float smem[BLOCK];
  const int o = blockIdx.x;
  float sum = 0.0f;
  for (int b = threadIdx.x; b < B; b += BLOCK)
    sum += dout[b * OC + o];
  smem[threadIdx.x] = sum;
  __syncthreads();
  for (int stride = BLOCK / 2; stride >= WARP_SIZE; stride /= 2) {
    if (threadIdx.x < stride)
      smem[threadIdx.x] += smem[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x < WARP_SIZE) {
    float v = warpReduceSum(smem[threadIdx.x]);
    if (threadIdx.x == 0)
      dbias[o] += v;
  }
}
