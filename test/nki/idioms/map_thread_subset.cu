// map_thread_subset: out[i] = 3 * in[i] with the block size written as a
// constant (`blockIdx.x * 64`) and a guard on threadIdx.x: a map at 64
// threads a block, which the output asserts of the launch.
// EXPECT: lift
#include <cuda_runtime.h>

__global__ void map_thread_subset(float *out, const float *in, int n) {
  int i = blockIdx.x * 64 + threadIdx.x;
  if (threadIdx.x < 64 && i < n)
    out[i] = in[i] * 3.0f;
}
