// CUDA's device assert: each thread whose assert fails prints where (to stderr) and stops,
// the launch starts no further block, and cudaErrorAssert is sticky. argv[1] selects the
// scenario.
#include <cassert>
#include <cstdio>
#include <cstring>

__global__ void check(const int* v, int n, int* seen) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  assert(v[i] < n);  // ASSERT_LINE
  seen[i] = 1;       // not reached by a thread whose assert failed
}

int main(int argc, char** argv) {
  const char* s = argc > 1 ? argv[1] : "";
  const int nthreads = 64;
  int h[nthreads], seen[nthreads];
  for (int i = 0; i < nthreads; ++i) h[i] = i;
  int *v, *d_seen;
  cudaMalloc(&v, sizeof h);
  cudaMalloc(&d_seen, sizeof seen);
  cudaMemcpy(v, h, sizeof h, cudaMemcpyHostToDevice);
  cudaMemset(d_seen, 0, sizeof seen);
  if (!strcmp(s, "fail") || !strcmp(s, "pass")) {
    // 2 blocks of 32; with n = 60 the last four threads of block 1 fail.
    const int n = !strcmp(s, "fail") ? 60 : 100;
    pkemu::launch(check, 2, 32, 0, 0, v, n, d_seen);
    cudaError_t e = cudaDeviceSynchronize();
    printf("sync: %s\n", cudaGetErrorName(e));
    e = cudaMemcpy(seen, d_seen, sizeof seen, cudaMemcpyDeviceToHost);
    printf("copy: %s\n", cudaGetErrorName(e));
    int ran = 0;
    for (int i = 0; i < nthreads; ++i) ran += seen[i];
    printf("threads past the assert: %d\n", ran);
    pkemu::launch(check, 2, 32, 0, 0, v, 100, d_seen);
    printf("relaunch: %s\n", cudaGetErrorName(cudaGetLastError()));
  } else if (!strcmp(s, "host")) {
    assert(argc > 5);  // HOST_ASSERT_LINE
    printf("not reached\n");
  } else {
    printf("unknown scenario\n");
    return 2;
  }
  return 0;
}
