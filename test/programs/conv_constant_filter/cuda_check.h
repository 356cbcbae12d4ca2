// Error checking shared by the convolution program.
#pragma once
#include <cstdio>
#include <cstdlib>

#define CUDA_CHECK(expr)                                                       \
  do {                                                                         \
    cudaError_t status_ = (expr);                                              \
    if (status_ != cudaSuccess) {                                              \
      fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #expr,     \
              cudaGetErrorString(status_));                                    \
      exit(EXIT_FAILURE);                                                      \
    }                                                                          \
  } while (0)

#define CUDA_CHECK_KERNEL() CUDA_CHECK(cudaGetLastError())

#define iDivUp(a, b) (((a) + (b) - 1) / (b))
