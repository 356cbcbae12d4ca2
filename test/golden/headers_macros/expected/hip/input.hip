#include <hip/hip_runtime.h>
#include "include/util.hpp"
#include <hip/hip_runtime.h>

__global__ void k(float *p) { p[threadIdx.x] = util_square(p[threadIdx.x]); }

void go(float *p) {
  STREAM_T s;
  hipStreamCreate(&s);
  k<<<1, 32, 0, s>>>(p);
  CHECK_LAST();
  hipStreamDestroy(s);
}
