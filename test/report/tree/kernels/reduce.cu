// Per-block sums and a partial-mask broadcast: a small input for the
// report tests (edits in a header and a source, findings, strategies).
#include <cuda_runtime.h>
#include <cstdio>
#include "warp_sum.cuh"

__global__ void block_sums(const float *in, float *out, int n) {
  __shared__ float warp_totals[32];
  const int tid = threadIdx.x;
  const int lane = tid % warpSize;
  const int warp = tid / warpSize;
  float v = blockIdx.x * blockDim.x + tid < n ? in[blockIdx.x * blockDim.x + tid] : 0.0f;
  v = warp_sum(v);
  if (lane == 0)
    warp_totals[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < blockDim.x / warpSize ? warp_totals[lane] : 0.0f;
    v = warp_sum(v);
    if (lane == 0)
      out[blockIdx.x] = v;
  }
}

__global__ void halves(const int *in, int *out) {
  const int lane = threadIdx.x & 31;
  int x = in[threadIdx.x];
  if (lane < 16)
    x = __shfl_sync(0x0000ffff, x, 0, 16);
  out[threadIdx.x] = x;
}

int main() {
  float *d_in = nullptr, *d_out = nullptr;
  cudaMalloc(&d_in, 1024 * sizeof(float));
  cudaMalloc(&d_out, 4 * sizeof(float));
  block_sums<<<4, 256>>>(d_in, d_out, 1024);
  cudaError_t err = cudaDeviceSynchronize();
  if (err != cudaSuccess)
    printf("error: %s\n", cudaGetErrorString(err));
  cudaFree(d_in);
  cudaFree(d_out);
  return 0;
}
