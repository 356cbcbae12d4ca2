// A multi-file program in the style of benchmark suites: no runtime include
// (nvcc adds it), a checkCudaErrors macro, WARP_SIZE from the command line,
// the kernels in kernels.cu included here, and a printed verdict.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "kernels.cu"

#define checkCudaErrors(call)                                                  \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      std::fprintf(stderr, "CUDA error %s at %s:%d\n",                         \
                   cudaGetErrorString(err_), __FILE__, __LINE__);              \
      std::exit(EXIT_FAILURE);                                                 \
    }                                                                          \
  } while (0)

int main() {
  const int n = 5000, threads = 256, blocks = (n + threads - 1) / threads;
  std::vector<float> h(n);
  double want = 0;
  for (int i = 0; i < n; ++i) {
    h[i] = float((i * 37) % 101) / 101.0f - 0.5f;
    want += h[i];
  }
  float *dIn, *dPartial;
  checkCudaErrors(cudaMalloc(&dIn, n * sizeof(float)));
  checkCudaErrors(cudaMalloc(&dPartial, blocks * sizeof(float)));
  checkCudaErrors(
      cudaMemcpy(dIn, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  blockSums<<<blocks, threads>>>(dIn, dPartial, n);
  checkCudaErrors(cudaGetLastError());
  std::vector<float> partial(blocks);
  checkCudaErrors(cudaMemcpy(partial.data(), dPartial, blocks * sizeof(float),
                             cudaMemcpyDeviceToHost));
  double got = 0;
  for (float p : partial)
    got += p;
  checkCudaErrors(cudaFree(dIn));
  checkCudaErrors(cudaFree(dPartial));
  const bool ok = std::fabs(got - want) < 1e-3;
  std::printf("sum %.6f (expected %.6f): %s\n", got, want, ok ? "PASS" : "FAIL");
  return 0; // the verdict is printed, as in many benchmark suites
}
