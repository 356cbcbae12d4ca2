// The forward pass of a linear layer followed by GELU: out = gelu(inp @ W^T + b),
// inp (N, C), W (OC, C), b (OC), row-major as a training loop keeps them.
// cuBLAS is column-major, so the row-major product is computed as its
// transpose: out^T (OC, N) = W (OC, C) x inp^T (C, N).
#pragma once
#include "common.cuh"

#define GELU_SCALING_FACTOR sqrtf(2.0f / M_PI)

__global__ void add_bias_gelu(float *out, const float *bias, int N, int OC) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < N * OC) {
    float x = out[idx] + bias[idx % OC];
    float cube = 0.044715f * x * x * x;
    out[idx] = 0.5f * x * (1.0f + tanhf(GELU_SCALING_FACTOR * (x + cube)));
  }
}

// Sum of squares of each row, one warp per row: the shuffle reduction that
// training code writes next to its GEMMs.
__global__ void row_sumsq(const float *out, float *sumsq, int N, int OC) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int lane = threadIdx.x % 32;
  if (warp >= N) return;
  float s = 0.0f;
  for (int i = lane; i < OC; i += 32) s += out[warp * OC + i] * out[warp * OC + i];
  for (int off = 16; off > 0; off /= 2) s += __shfl_down_sync(0xffffffff, s, off);
  if (lane == 0) sumsq[warp] = s;
}

static void matmul_forward(cublasHandle_t handle, float *out, const float *inp,
                           const float *weight, const float *bias, int N, int C, int OC,
                           bool use_gemm_ex) {
  const float alpha = 1.0f, beta = 0.0f;
  if (use_gemm_ex)
    cublasCheck(cublasGemmEx(handle, CUBLAS_OP_T, CUBLAS_OP_N, OC, N, C, &alpha, weight,
                             CUDA_R_32F, C, inp, CUDA_R_32F, C, &beta, out, CUDA_R_32F, OC,
                             CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
  else
    cublasCheck(cublasSgemm(handle, CUBLAS_OP_T, CUBLAS_OP_N, OC, N, C, &alpha, weight, C,
                            inp, C, &beta, out, OC));
  add_bias_gelu<<<ceil_div(N * OC, 128), 128>>>(out, bias, N, OC);
  cudaCheck(cudaGetLastError());
}
