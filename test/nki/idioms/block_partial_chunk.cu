// block_partial_chunk: per-block sums of one chunk each, partial[b] = sum
// of x[j] for 2 * blockDim.x * b <= j < 2 * blockDim.x * (b + 1), j < n
// (no grid-stride loop: the grid covers the input once, or only its
// first chunks).
// Idiom: the first add during the load, each load under its own bound
// (conditional expressions), a templated block size and a shared tree.
// EXPECT: lift
#include <cuda_runtime.h>

template <unsigned int BS>
__global__ void block_partial_chunk(const float *x, float *partial,
                                    unsigned int n) {
  __shared__ float s[BS];
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * (2 * BS) + tid;
  float v = i < n ? x[i] : 0.0f;
  if (i + BS < n)
    v += x[i + BS];
  s[tid] = v;
  __syncthreads();
#pragma unroll
  for (unsigned int k = BS / 2; k > 0; k >>= 1) {
    if (tid < k)
      s[tid] += s[tid + k];
    __syncthreads();
  }
  if (tid == 0)
    partial[blockIdx.x] = s[0];
}

template __global__ void block_partial_chunk<128>(const float *, float *,
                                                  unsigned int);
