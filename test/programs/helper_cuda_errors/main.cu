// Third-party idiom: the sample suites' error macros from a local
// helper_cuda.h, the runtime header included first.
#include <cuda_runtime.h>
#include "helper_cuda.h"
#include <vector>

__global__ void squares(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = i * i;
}

int main() {
  const int n = 300;
  findCudaDevice();
  int *d = nullptr;
  checkCudaErrors(cudaMalloc(&d, n * sizeof(int)));
  squares<<<(n + 63) / 64, 64>>>(d, n);
  getLastCudaError("squares failed");
  std::vector<int> h(n);
  checkCudaErrors(cudaMemcpy(h.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost));
  checkCudaErrors(cudaFree(d));
  for (int i = 0; i < n; ++i)
    if (h[i] != i * i) {
      std::printf("mismatch at %d\n", i);
      return 1;
    }
  std::printf("helper_cuda_errors: ok\n");
  return 0;
}
