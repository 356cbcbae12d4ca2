// Third-party idiom: element-wise bfloat16 code that relies on the implicit
// float conversions of cuda_bf16.h (assignment from float, copy
// initialisation from a float literal).
#include <cuda_bf16.h>
#include <cstdio>
#include <vector>

__global__ void halve(const float *x, __nv_bfloat16 *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    __nv_bfloat16 two = 2.0f;
    float v = x[i] / __bfloat162float(two);
    y[i] = v;
  }
}

int main() {
  const int n = 256;
  std::vector<float> x(n);
  for (int i = 0; i < n; ++i)
    x[i] = float(i % 16);
  float *dx;
  __nv_bfloat16 *dy;
  cudaMalloc(&dx, n * sizeof(float));
  cudaMalloc(&dy, n * sizeof(__nv_bfloat16));
  cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  halve<<<n / 64, 64>>>(dx, dy, n);
  std::vector<__nv_bfloat16> y(n);
  cudaMemcpy(y.data(), dy, n * sizeof(__nv_bfloat16), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i)
    if (__bfloat162float(y[i]) != x[i] / 2.f) {
      std::printf("mismatch at %d: %f\n", i, __bfloat162float(y[i]));
      return 1;
    }
  std::printf("bf16_elementwise: ok\n");
  return 0;
}
