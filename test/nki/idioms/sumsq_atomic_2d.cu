// sumsq_atomic_2d: out[0] += sum_{r,c} x[r][c]^2 of a rows x cols matrix.
// Idiom: a grid-stride loop over the flattened matrix, a butterfly of xor
// shuffles (every lane ends with the warp's sum), then lane 0 of each warp
// adds it into out[0].
// EXPECT: lift
#include <cuda_runtime.h>

__global__ void sumsq_atomic_2d(float *out, const float *x, int rows,
                                int cols) {
  const int n = rows * cols;
  float s = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x) {
    float v = x[i];
    s += v * v;
  }
  for (int o = warpSize / 2; o > 0; o /= 2)
    s += __shfl_xor_sync(0xffffffff, s, o);
  if (threadIdx.x % warpSize == 0)
    atomicAdd(&out[0], s);
}
