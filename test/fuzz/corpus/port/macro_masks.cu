// Masks and barriers behind macros (issue 11's silent-wrong-output class),
// a raw string, a #line directive and CRLF-free text for the mutator to bend.
#include <cuda_runtime.h>
#define FULL 0xffffffffu
#define WARP_BARRIER() __syncwarp(FULL)
#define SHFL(v, o) __shfl_down_sync(FULL, v, o)
__device__ int count_bits(unsigned m) { return __popc(m); }
__global__ void k(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.f;
  for (int o = 16; o > 0; o >>= 1)
    v += SHFL(v, o);
  WARP_BARRIER();
  unsigned b = __ballot_sync(FULL, v > 0.f);
  const char *s = R"(__syncwarp(FULL))";
#line 100 "elsewhere.cu"
  if ((threadIdx.x & 31) == 0)
    out[i / 32] = v + count_bits(FULL) + count_bits(b) + s[0];
}
int main() {
  float *d;
  cudaMalloc(&d, 1024);
  k<<<1, 64>>>(d, d, 64);
  cudaDeviceSynchronize();
  cudaFree(d);
}
