// Definitions shared by the sorting network program.
#pragma once
#include <cstdio>
#include <cstdlib>

#define checkCuda(call)                                                        \
  do {                                                                         \
    const cudaError_t error_code = (call);                                     \
    if (error_code != cudaSuccess) {                                           \
      printf("CUDA Error:\n");                                                 \
      printf("    File:       %s\n", __FILE__);                                \
      printf("    Line:       %d\n", __LINE__);                                \
      printf("    Error code: %d\n", error_code);                              \
      printf("    Error text: %s\n", cudaGetErrorString(error_code));          \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

// Elements sorted in shared memory by one block: two per thread.
#define SHARED_SIZE_LIMIT 256U
#define SORT_THREADS (SHARED_SIZE_LIMIT / 2)

typedef unsigned int uint;

static inline uint nextPow2(uint x) {
  uint p = 1;
  while (p < x)
    p <<= 1;
  return p;
}
