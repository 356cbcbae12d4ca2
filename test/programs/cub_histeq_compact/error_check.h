// Error checking for the image pipeline.
#pragma once
#include <cstdio>
#include <cstdlib>

#define CUDA_TRY(e)                                                        \
  if (cudaError_t err_ = (e)) {                                                \
    fprintf(stderr, "%s(%d): CUDA error %d: %s\n", __FILE__, __LINE__,         \
            (int)err_, cudaGetErrorString(err_));                              \
    exit(1);                                                                   \
  }

#define NUM_BINS 256
