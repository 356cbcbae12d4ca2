// global_max_atomic: out[0] = max(out[0], max_i x[i]) over int32 values of
// any magnitude.
// Idiom: a grid-stride loop keeps each thread's max (CUDA's int max()),
// a __shfl_down_sync tree per warp, lane 0 of every warp does atomicMax.
// EXPECT: lift
#include <climits>
#include <cuda_runtime.h>

__global__ void global_max_atomic(int *out, const int *x, int n) {
  int m = INT_MIN;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    m = max(m, x[i]);
  for (int o = 16; o > 0; o >>= 1) {
    int t = __shfl_down_sync(0xffffffffu, m, o);
    m = t > m ? t : m;
  }
  if ((threadIdx.x & 31) == 0)
    atomicMax(out, m);
}
