// Shared definitions of the scan program: error checking and the
// bank-conflict padding of the work-efficient (Blelloch) scan.
#ifndef SCAN_COMMON_H
#define SCAN_COMMON_H

#include <cstdio>
#include <cstdlib>

#define CUDA_SAFE_CALL(call)                                                   \
  do {                                                                         \
    cudaError_t e = (call);                                                    \
    if (e != cudaSuccess) {                                                    \
      fprintf(stderr, "CUDA error in %s at line %d: %s (%s)\n", __FILE__,      \
              __LINE__, cudaGetErrorString(e), #call);                         \
      exit(EXIT_FAILURE);                                                      \
    }                                                                          \
  } while (0)

#define CHECK_LAST_KERNEL(name)                                                \
  do {                                                                         \
    cudaError_t e = cudaGetLastError();                                        \
    if (e != cudaSuccess) {                                                    \
      fprintf(stderr, "kernel %s failed: %s\n", name, cudaGetErrorString(e));  \
      exit(EXIT_FAILURE);                                                      \
    }                                                                          \
  } while (0)

// Shared memory has 32 banks of 4 bytes: one pad slot every 32 elements
// keeps the strided accesses of the up- and down-sweep off the same bank.
#define NUM_BANKS 32
#define LOG_NUM_BANKS 5
#define CONFLICT_FREE_OFFSET(n) ((n) >> LOG_NUM_BANKS)

#define SCAN_THREADS 128
#define ELEMS_PER_BLOCK (2 * SCAN_THREADS)
#define SCAN_SMEM_ELEMS (ELEMS_PER_BLOCK + CONFLICT_FREE_OFFSET(ELEMS_PER_BLOCK - 1) + 1)

static inline int divUp(int a, int b) { return (a + b - 1) / b; }

#endif // SCAN_COMMON_H
