// Third-party idiom: the CPU reference calls math that CUDA declares
// __host__ __device__ (rsqrtf) and HIP device-only.
#include <cmath>
#include <cstdio>
#include <vector>

__global__ void invNorm(const float *x, const float *y, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = rsqrtf(x[i] * x[i] + y[i] * y[i]);
}

static float reference(float x, float y) { return rsqrtf(x * x + y * y); }

int main() {
  const int n = 512;
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) {
    x[i] = 1.f + float(i % 7);
    y[i] = 2.f + float(i % 3);
  }
  float *dx, *dy, *dout;
  cudaMalloc(&dx, n * sizeof(float));
  cudaMalloc(&dy, n * sizeof(float));
  cudaMalloc(&dout, n * sizeof(float));
  cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dy, y.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  invNorm<<<n / 128, 128>>>(dx, dy, dout, n);
  std::vector<float> r(n);
  cudaMemcpy(r.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i)
    if (std::fabs(r[i] - reference(x[i], y[i])) > 1e-5f) {
      std::printf("mismatch at %d: %f vs %f\n", i, r[i], reference(x[i], y[i]));
      return 1;
    }
  std::printf("host_math: ok\n");
  return 0;
}
