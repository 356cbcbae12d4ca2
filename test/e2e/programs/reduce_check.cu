// A self-checking program: exits non-zero when the GPU result is wrong.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include "reduce_check.cuh"

__global__ void row_sums(const float *x, float *out, int cols) {
  // One warp per row; lane = threadIdx.x % 32 assumes 32-lane warps.
  int warp = threadIdx.x / WARP_SIZE, lane = threadIdx.x % WARP_SIZE;
  int row = blockIdx.x * (blockDim.x / WARP_SIZE) + warp;
  float s = 0.f;
  for (int c = lane; c < cols; c += WARP_SIZE) s += x[row * cols + c];
  s = warp_reduce_sum(s);
  unsigned nonzero = __ballot_sync(FULL_MASK, s != 0.f);
  if (lane == 0) out[row] = s + (__popc(nonzero) == WARP_SIZE ? 0.f : 1000.f);
}

int main(int argc, char **argv) {
  int rows = argc > 1 ? std::atoi(argv[1]) : 64, cols = 100;
  std::vector<float> h(rows * cols), r(rows);
  for (int i = 0; i < rows * cols; ++i) h[i] = float((i * 7) % 13) - 6.f + 0.5f;
  float *dx, *dout;
  cudaMalloc(&dx, h.size() * sizeof(float));
  cudaMalloc(&dout, rows * sizeof(float));
  cudaMemcpy(dx, h.data(), h.size() * sizeof(float), cudaMemcpyHostToDevice);
  row_sums<<<rows / 4, 128>>>(dx, dout, cols);
  cudaMemcpy(r.data(), dout, rows * sizeof(float), cudaMemcpyDeviceToHost);
  if (cudaGetLastError() != cudaSuccess) return 2;
  for (int i = 0; i < rows; ++i) {
    double ref = 0;
    for (int c = 0; c < cols; ++c) ref += h[i * cols + c];
    if (std::abs(ref - r[i]) > 1e-3 * (1 + std::abs(ref))) {
      std::printf("row %d: got %f want %f\n", i, r[i], ref);
      return 1;
    }
  }
  std::printf("ok\n");
  return 0;
}
