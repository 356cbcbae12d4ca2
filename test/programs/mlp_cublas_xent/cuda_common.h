// Utilities shared by the MLP program, in the style of training code.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <cublas_v2.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

void cuda_check(cudaError_t error, const char *file, int line) {
  if (error != cudaSuccess) {
    printf("[CUDA ERROR] at file %s:%d:\n%s\n", file, line, cudaGetErrorString(error));
    exit(EXIT_FAILURE);
  }
}
#define cudaCheck(err) (cuda_check(err, __FILE__, __LINE__))

void cublas_check(cublasStatus_t status, const char *file, int line) {
  if (status != CUBLAS_STATUS_SUCCESS) {
    printf("[cuBLAS ERROR]: %d %s %d\n", status, file, line);
    exit(EXIT_FAILURE);
  }
}
#define cublasCheck(status) { cublas_check((status), __FILE__, __LINE__); }

template <class T>
__host__ __device__ T CEIL_DIV(T dividend, T divisor) {
  return (dividend + divisor - 1) / divisor;
}

constexpr int WARP_SIZE = 32;

__device__ inline float warpReduceMax(float val) {
  for (int offset = 16; offset > 0; offset /= 2)
    val = fmaxf(val, __shfl_xor_sync(0xFFFFFFFF, val, offset));
  return val;
}

__device__ inline float warpReduceSum(float val) {
  for (int offset = 16; offset > 0; offset /= 2)
    val += __shfl_xor_sync(0xFFFFFFFF, val, offset);
  return val;
}
