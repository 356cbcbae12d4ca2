#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
__global__ void fill(int *p, int v) { p[blockIdx.x * blockDim.x + threadIdx.x] = v; }
int main(int argc, char **argv) {
  int v = argc > 1 ? std::atoi(argv[1]) : 3;
  if (argc > 2 && std::strcmp(argv[2], "-") != 0) { // expected PKEMU_WARP_SIZE
    const char *w = std::getenv("PKEMU_WARP_SIZE");
    if (!w || std::strcmp(w, argv[2]) != 0) { std::printf("PKEMU_WARP_SIZE=%s\n", w ? w : "(unset)"); return 2; }
  }
  if (argc > 3) { // expected PKEMU_TIMEOUT_S
    const char *t = std::getenv("PKEMU_TIMEOUT_S");
    if (!t || std::strcmp(t, argv[3]) != 0) { std::printf("PKEMU_TIMEOUT_S=%s\n", t ? t : "(unset)"); return 2; }
  }
  int *d = nullptr;
  cudaMalloc((void **)&d, 64 * sizeof(int));
  fill<<<2, 32>>>(d, v);
  cudaDeviceSynchronize();
  int h[64];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 64; ++i)
    if (h[i] != v) { std::printf("FAILED at %d\n", i); return 1; }
  std::printf("OK %d\n", v);
  return v == 13 ? 1 : 0; // 13 makes it fail, for the tests
}
