// global_umin_atomic: out[0] = min(out[0], min_i x[i]) over uint32 values
// of any magnitude.
// Idiom: a grid-stride loop keeps each thread's minimum (CUDA's unsigned
// min()), a __shfl_xor_sync butterfly per warp, lane 0 of every warp does
// an unsigned atomicMin.
// EXPECT: lift
#include <cuda_runtime.h>

__global__ void global_umin_atomic(unsigned *out, const unsigned *x, int n) {
  unsigned m = 0xffffffffu;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    m = min(m, x[i]);
  for (int o = 16; o > 0; o >>= 1)
    m = min(m, __shfl_xor_sync(0xffffffffu, m, o));
  if ((threadIdx.x & 31) == 0)
    atomicMin(out, m);
}
