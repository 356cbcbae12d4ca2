// Memory API coverage: allocation, copies, sets, symbols, pitch and managed.
#include <cuda_runtime.h>
#include <cstdio>

__constant__ float coeffs[16];
__device__ int counter;

__global__ void scale(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= coeffs[i % 16];
}

int run(int n) {
  float *d = nullptr, *h = nullptr, *m = nullptr, *pinned = nullptr;
  size_t bytes = n * sizeof(float);
  cudaMalloc(&d, bytes);                      // device allocation
  cudaMallocHost(&h, bytes);
  cudaHostAlloc((void **)&pinned, bytes, cudaHostAllocDefault);
  cudaMallocManaged(&m, bytes);
  cudaMemset(d, 0, bytes);
  cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice);
  float c[16] = {1};
  cudaMemcpyToSymbol(coeffs, c, sizeof(c));
  scale<<<(n + 255) / 256, 256>>>(d, n);
  cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost);
  cudaMemcpy(m, d, bytes, cudaMemcpyDeviceToDevice);
  int zero = 0;
  cudaMemcpyFromSymbol(&zero, counter, sizeof(int));
  size_t freeB = 0, totalB = 0;
  cudaMemGetInfo(&freeB, &totalB);
  void *pitched = nullptr;
  size_t pitch = 0;
  cudaMallocPitch(&pitched, &pitch, 64 * sizeof(float), 8);
  cudaMemcpy2D(pitched, pitch, h, 64 * sizeof(float), 64 * sizeof(float), 8,
               cudaMemcpyHostToDevice);
  cudaMemcpy(h, m, bytes, cudaMemcpyDefault);
  cudaFree(pitched);
  cudaFreeHost(pinned);
  cudaFreeHost(h);
  cudaFree(m);
  cudaFree(d);
  return 0;
}
