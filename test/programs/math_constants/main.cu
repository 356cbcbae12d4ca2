// Third-party idiom: CUDART_* constants from <math_constants.h>.
#include <math_constants.h>
#include <cmath>
#include <cstdio>
#include <vector>

__global__ void circleAreas(const float *r, float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] = isinf(CUDART_INF_F) ? CUDART_PI_F * r[i] * r[i] : -1.f;
}

int main() {
  const int n = 256;
  std::vector<float> r(n);
  for (int i = 0; i < n; ++i)
    r[i] = 0.25f * float(i % 9);
  float *dr, *da;
  cudaMalloc(&dr, n * sizeof(float));
  cudaMalloc(&da, n * sizeof(float));
  cudaMemcpy(dr, r.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  circleAreas<<<n / 64, 64>>>(dr, da, n);
  std::vector<float> a(n);
  cudaMemcpy(a.data(), da, n * sizeof(float), cudaMemcpyDeviceToHost);
  if (CUDART_SQRT_TWO_F * CUDART_SQRT_HALF_F > 1.0001f) {
    std::printf("constants wrong\n");
    return 1;
  }
  for (int i = 0; i < n; ++i)
    if (std::fabs(a[i] - 3.14159265f * r[i] * r[i]) > 1e-4f) {
      std::printf("mismatch at %d\n", i);
      return 1;
    }
  std::printf("math_constants: ok\n");
  return 0;
}
