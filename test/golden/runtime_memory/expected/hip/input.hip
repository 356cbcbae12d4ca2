// Memory API coverage: allocation, copies, sets, symbols, pitch and managed.
#include <hip/hip_runtime.h>
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
  hipMalloc(&d, bytes);                      // device allocation
  hipHostMalloc(&h, bytes);
  hipHostMalloc((void **)&pinned, bytes, hipHostMallocDefault);
  hipMallocManaged(&m, bytes);
  hipMemset(d, 0, bytes);
  hipMemcpy(d, h, bytes, hipMemcpyHostToDevice);
  float c[16] = {1};
  hipMemcpyToSymbol(coeffs, c, sizeof(c));
  scale<<<(n + 255) / 256, 256>>>(d, n);
  hipMemcpy(h, d, bytes, hipMemcpyDeviceToHost);
  hipMemcpy(m, d, bytes, hipMemcpyDeviceToDevice);
  int zero = 0;
  hipMemcpyFromSymbol(&zero, counter, sizeof(int));
  size_t freeB = 0, totalB = 0;
  hipMemGetInfo(&freeB, &totalB);
  void *pitched = nullptr;
  size_t pitch = 0;
  hipMallocPitch(&pitched, &pitch, 64 * sizeof(float), 8);
  hipMemcpy2D(pitched, pitch, h, 64 * sizeof(float), 64 * sizeof(float), 8,
               hipMemcpyHostToDevice);
  hipMemcpy(h, m, bytes, hipMemcpyDefault);
  hipFree(pitched);
  hipHostFree(pinned);
  hipHostFree(h);
  hipFree(m);
  hipFree(d);
  return 0;
}
