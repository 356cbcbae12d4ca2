// Third-party idiom: no runtime include at all (nvcc adds cuda_runtime.h).
#include <cstdio>
#include <vector>

__global__ void axpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

int main() {
  const int n = 1000;
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) {
    x[i] = float(i % 17);
    y[i] = float(i % 5);
  }
  float *dx, *dy;
  cudaMalloc(&dx, n * sizeof(float));
  cudaMalloc(&dy, n * sizeof(float));
  cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dy, y.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  axpy<<<(n + 127) / 128, 128>>>(n, 2.f, dx, dy);
  std::vector<float> r(n);
  cudaMemcpy(r.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dy);
  for (int i = 0; i < n; ++i)
    if (r[i] != 2.f * x[i] + y[i]) {
      std::printf("mismatch at %d: %f\n", i, r[i]);
      return 1;
    }
  std::printf("implicit_runtime: ok\n");
  return 0;
}
