// Row sums written in HIP for any wave size: lanes, waves and the shuffle
// reduction are counted in warpSize (64 on CDNA, 32 on NVIDIA), the shuffles
// use HIP's default width (the whole wave).  A block of 256 threads reduces
// one row in a grid-strided loop: each wave sums its slice with shuffles,
// the first wave sums the per-wave partials from shared memory.
#include <hip/hip_runtime.h>

#define THREADS 256
#define MAX_WAVES 32 // at most 1024 threads of 32 lanes

__device__ float wave_sum(float v) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
    v += __shfl_down(v, offset);
  return v;
}

__global__ void __launch_bounds__(THREADS)
row_sums(const float *in, float *out, int rows, int cols) {
  __shared__ float partial[MAX_WAVES];
  const int row = blockIdx.x;
  if (row >= rows)
    return;
  const int lane = threadIdx.x % warpSize;
  const int wave = threadIdx.x / warpSize;
  const int waves = blockDim.x / warpSize;
  float s = 0.0f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    s += in[(size_t)row * cols + c];
  s = wave_sum(s);
  if (lane == 0)
    partial[wave] = s;
  __syncthreads();
  if (wave == 0) {
    float t = lane < waves ? partial[lane] : 0.0f;
    t = wave_sum(t);
    if (lane == 0)
      out[row] = t;
  }
}

void launch_row_sums(const float *in, float *out, int rows, int cols,
                     hipStream_t stream) {
  hipLaunchKernelGGL(row_sums, dim3(rows), dim3(THREADS), 0, stream, in, out,
                     rows, cols);
}
