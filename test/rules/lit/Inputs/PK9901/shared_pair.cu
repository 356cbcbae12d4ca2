// Program of the PK9901 test: two namespace-scope __shared__ variables in one
// declaration.  Exits 0 when the sums are right.
#include <cuda_runtime.h>
#include <cstdio>

__shared__ float lo, hi;

__global__ void span(const float *x, float *out) {
  if (threadIdx.x == 0) {
    lo = x[0];
    hi = x[31];
  }
  __syncthreads();
  out[threadIdx.x] = hi - lo;
}

int main() {
  float h[32], r[32];
  for (int i = 0; i < 32; ++i)
    h[i] = float(i);
  float *dx, *dout;
  cudaMalloc(&dx, sizeof h);
  cudaMalloc(&dout, sizeof r);
  cudaMemcpy(dx, h, sizeof h, cudaMemcpyHostToDevice);
  span<<<1, 32>>>(dx, dout);
  cudaMemcpy(r, dout, sizeof r, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 32; ++i)
    if (r[i] != 31.f) {
      std::printf("%d: got %f\n", i, r[i]);
      return 1;
    }
  std::printf("ok\n");
  return 0;
}
