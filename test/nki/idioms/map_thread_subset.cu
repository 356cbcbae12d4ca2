// map_thread_subset: only the first 64 threads of each block store.
// EXPECT: refuse PK5006 "not multiplied by the block size"
#include <cuda_runtime.h>

__global__ void map_thread_subset(float *out, const float *in, int n) {
  int i = blockIdx.x * 64 + threadIdx.x;
  if (threadIdx.x < 64 && i < n)
    out[i] = in[i] * 3.0f;
}
