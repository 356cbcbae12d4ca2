// Error checking in the style of training code: every library call is
// wrapped, and a failure names the call and exits.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <cublas_v2.h>

static void cudaCheckAt(cudaError_t err, const char *file, int line) {
  if (err != cudaSuccess) {
    std::printf("[CUDA ERROR] at %s:%d: %s\n", file, line, cudaGetErrorString(err));
    std::exit(EXIT_FAILURE);
  }
}
#define cudaCheck(err) (cudaCheckAt((err), __FILE__, __LINE__))

// The library's error names only where its header is seen, as the sample
// suites' helper_cuda.h tests cublas_api.h's include guard (HIP: hipblas.h's).
#ifdef CUBLAS_API_H_
static const char *cublasErrorName(cublasStatus_t s) {
  switch (s) {
  case CUBLAS_STATUS_SUCCESS:
    return "CUBLAS_STATUS_SUCCESS";
  case CUBLAS_STATUS_NOT_INITIALIZED:
    return "CUBLAS_STATUS_NOT_INITIALIZED";
  case CUBLAS_STATUS_INVALID_VALUE:
    return "CUBLAS_STATUS_INVALID_VALUE";
  default:
    return "<unknown>";
  }
}
#endif

static void cublasCheckAt(cublasStatus_t status, const char *file, int line) {
  if (status != CUBLAS_STATUS_SUCCESS) {
    std::printf("[cuBLAS ERROR] %s at %s:%d\n", cublasErrorName(status), file,
                line);
    std::exit(EXIT_FAILURE);
  }
}
#define cublasCheck(status) (cublasCheckAt((status), __FILE__, __LINE__))

static int ceil_div(int a, int b) { return (a + b - 1) / b; }
