// Third-party idiom: the program prints its verdict and exits 0 either
// way (benchmark suites); with --expect-output the verdict is judged.
#include <cstdio>
#include <vector>

__global__ void increment(int *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] += 1;
}

int main() {
  const int n = 200;
  std::vector<int> h(n);
  for (int i = 0; i < n; ++i)
    h[i] = i;
  int *d;
  cudaMalloc(&d, n * sizeof(int));
  cudaMemcpy(d, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  increment<<<4, 64>>>(d, n);
  cudaMemcpy(h.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost);
  bool ok = true;
  for (int i = 0; i < n; ++i)
    ok &= h[i] == i + 1;
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return 0;
}
