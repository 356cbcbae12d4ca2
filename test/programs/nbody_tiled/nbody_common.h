// Shared declarations of the n-body program.
#ifndef NBODY_COMMON_H
#define NBODY_COMMON_H
#include <cstdio>
#include <cstdlib>

#define gpuErrchk(ans)                                                         \
  { gpuAssert((ans), __FILE__, __LINE__); }
inline void gpuAssert(cudaError_t code, const char *file, int line, bool abort = true) {
  if (code != cudaSuccess) {
    fprintf(stderr, "GPUassert: %s %s %d\n", cudaGetErrorString(code), file, line);
    if (abort)
      exit(code);
  }
}

struct NBodyParams {
  float softeningSquared;
  float damping;
  float dt;
};

#endif
