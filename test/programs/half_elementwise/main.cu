// Third-party idiom: element-wise half-precision code with the implicit
// float conversions of cuda_fp16.h.
#include <cuda_fp16.h>
#include <cstdio>
#include <vector>

__global__ void scaleAdd(const __half *x, __half *y, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = __half2float(x[i]) * a;
    y[i] = __float2half(v + __half2float(y[i]));
  }
}

int main() {
  const int n = 256;
  std::vector<__half> x(n), y(n);
  for (int i = 0; i < n; ++i) {
    x[i] = __float2half(float(i % 8));
    y[i] = __float2half(1.f);
  }
  __half *dx, *dy;
  cudaMalloc(&dx, n * sizeof(__half));
  cudaMalloc(&dy, n * sizeof(__half));
  cudaMemcpy(dx, x.data(), n * sizeof(__half), cudaMemcpyHostToDevice);
  cudaMemcpy(dy, y.data(), n * sizeof(__half), cudaMemcpyHostToDevice);
  scaleAdd<<<n / 64, 64>>>(dx, dy, 0.5f, n);
  cudaMemcpy(y.data(), dy, n * sizeof(__half), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i) {
    float ref = 0.5f * float(i % 8) + 1.f;
    if (__half2float(y[i]) != ref) {
      std::printf("mismatch at %d: %f want %f\n", i, __half2float(y[i]), ref);
      return 1;
    }
  }
  std::printf("half_elementwise: ok\n");
  return 0;
}
