// Host-side utilities of the k-means program.
#pragma once
#include <cstdio>
#include <cstdlib>

#define CUDA_CALL(x)                                                           \
  do {                                                                         \
    cudaError_t rc = (x);                                                      \
    if (rc != cudaSuccess) {                                                   \
      fprintf(stderr, "Error %s at %s:%d (%s)\n", cudaGetErrorString(rc),      \
              __FILE__, __LINE__, #x);                                         \
      exit(EXIT_FAILURE);                                                      \
    }                                                                          \
  } while (0)

// Points are stored feature-major (structure of arrays): x[d * n + i].
constexpr int kDims = 4;
constexpr int kMaxClusters = 8;
constexpr int kThreads = 128;
