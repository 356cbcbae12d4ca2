// Class 11: warpSize as a constant expression (an array bound and a
// constexpr).  clang's CUDA headers make it the constant 32; HIP from
// ROCm 7.0 makes it a run-time value, and it is 64 on CDNA anyway.
#include <cuda_runtime.h>

__global__ void block_sum_ws(const float *__restrict__ in, float *__restrict__ out) {
  constexpr int kWarp = warpSize;
  __shared__ float partial[kWarp];
  const int lane = threadIdx.x % warpSize;
  const int warp = threadIdx.x / warpSize;
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = warpSize / 2; o > 0; o /= 2)
    v += __shfl_xor_sync(0xffffffff, v, o);
  if (lane == 0)
    partial[warp] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    float s = 0.0f;
    for (int w = 0; w < blockDim.x / warpSize; ++w)
      s += partial[w];
    out[blockIdx.x] = s;
  }
}
