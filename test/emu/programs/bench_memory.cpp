// Micro-benchmark of instrumented global-memory accesses under the emulator: every thread streams
// over a cudaMalloc'd buffer (loads and stores, each through a memory hook). Prints the best
// ns per access over the repetitions. Usage: bench_memory [threads] [iterations] [blocks] [reps]
#include <chrono>
#include <cstdio>
#include <cstdlib>

__global__ void stream(const float* in, float* out, int n, int iters) {
  float acc = 0.0f;
  for (int it = 0; it < iters; ++it)
    for (int i = threadIdx.x; i < n; i += blockDim.x) acc += in[i] * 0.5f;
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

int main(int argc, char** argv) {
  int threads = argc > 1 ? atoi(argv[1]) : 256;
  int iters = argc > 2 ? atoi(argv[2]) : 200;
  int blocks = argc > 3 ? atoi(argv[3]) : 8;
  int reps = argc > 4 ? atoi(argv[4]) : 5;
  const int n = 4096;
  float *in = nullptr, *out = nullptr;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, (size_t)blocks * threads * sizeof(float));
  cudaMemset(in, 0, n * sizeof(float));
  double best = 1e30;
  for (int r = 0; r < reps; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    pkemu::launch(stream, blocks, threads, 0, 0, in, out, n, iters);
    cudaDeviceSynchronize();
    double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count();
    double per = ns / ((double)blocks * iters * n);
    if (per < best) best = per;
  }
  printf("access_ns=%.3f\n", best);
  return 0;
}
