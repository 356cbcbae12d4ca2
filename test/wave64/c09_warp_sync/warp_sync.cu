// Class 9: implicit warp-synchronous code.  The classic block reduction: a
// shared-memory tree with barriers down to 64 values, then the first warp
// finishes through a volatile pointer with no __syncwarp between steps.
#include <cuda_runtime.h>

__device__ void warp_reduce(volatile float *s, int tid) {
  s[tid] += s[tid + 32];
  s[tid] += s[tid + 16];
  s[tid] += s[tid + 8];
  s[tid] += s[tid + 4];
  s[tid] += s[tid + 2];
  s[tid] += s[tid + 1];
}

__global__ void reduce_volatile(const float *__restrict__ in,
                                float *__restrict__ out) {
  __shared__ float sdata[256];
  const int tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (int s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid < 32)
    warp_reduce(sdata, tid);
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}
