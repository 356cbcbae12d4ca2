#ifndef PK1012_GUARDED_CUH
#define PK1012_GUARDED_CUH
#include <cuda_fp16.h>
__device__ inline __half twice(__half x) { return __hadd(x, x); }
#endif
