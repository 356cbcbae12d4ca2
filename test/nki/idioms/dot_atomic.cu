// dot_atomic: out[0] += sum_i a[i] * b[i] (out[0] starts at whatever the
// caller put there, usually 0).
// Idiom: grid-stride products into a per-thread sum, a shared-memory tree of
// 256, then one atomicAdd per block into out[0].
// EXPECT: lift
#include <cuda_runtime.h>

__global__ void dot_atomic(float *out, const float *a, const float *b, int n) {
  __shared__ float cache[256];
  int tid = threadIdx.x;
  float temp = 0.0f;
  for (int i = blockIdx.x * blockDim.x + tid; i < n;
       i += blockDim.x * gridDim.x)
    temp += a[i] * b[i];
  cache[tid] = temp;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      cache[tid] += cache[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    atomicAdd(out, cache[0]);
}
