// Error checks for the runtime and cuRAND, shared by the Monte Carlo program.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <curand.h>

#define CUDA_RT_CALL(call)                                                     \
  {                                                                            \
    cudaError_t cudaStatus = call;                                             \
    if (cudaSuccess != cudaStatus) {                                           \
      fprintf(stderr, "ERROR: CUDA RT call \"%s\" in line %d of file %s failed with %s (%d).\n", \
              #call, __LINE__, __FILE__, cudaGetErrorString(cudaStatus), cudaStatus); \
      exit(EXIT_FAILURE);                                                      \
    }                                                                          \
  }

#define CURAND_CALL(call)                                                      \
  {                                                                            \
    curandStatus_t st = call;                                                  \
    if (st != CURAND_STATUS_SUCCESS) {                                         \
      fprintf(stderr, "ERROR: cuRAND call \"%s\" in line %d of file %s failed (%d).\n", #call, \
              __LINE__, __FILE__, (int)st);                                    \
      exit(EXIT_FAILURE);                                                      \
    }                                                                          \
  }
