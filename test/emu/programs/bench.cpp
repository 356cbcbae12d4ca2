// Emulator micro-benchmark: cost of __syncthreads and of a warp shuffle, per thread.
#include <chrono>
#include <cstdio>
#include <cstdlib>

__global__ void bench_barrier(int iters, int* out) {
  int acc = 0;
  for (int i = 0; i < iters; ++i) {
    acc += i;
    __syncthreads();
  }
  if (acc == -1) *out = acc;
}

__global__ void bench_shuffle(int iters, int* out) {
  int v = threadIdx.x;
  for (int i = 0; i < iters; ++i) {
#if defined(PKEMU_LANG_HIP)
    v += __shfl_xor(v, 1);
#else
    v += __shfl_xor_sync(0xffffffffu, v, 1);
#endif
  }
  if (v == -1) *out = v;
}

static double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

int main(int argc, char** argv) {
  int threads = argc > 1 ? atoi(argv[1]) : 256;
  int iters = argc > 2 ? atoi(argv[2]) : 2000;
  int blocks = argc > 3 ? atoi(argv[3]) : 8;
  int reps = argc > 4 ? atoi(argv[4]) : 5;
  int* out = nullptr;
  pkemu::launch(bench_barrier, 2, threads, 0, 0, 10, out);  // warm-up: stacks, worker pool
  pkemu::launch(bench_shuffle, 2, threads, 0, 0, 10, out);
  double best_b = 1e30, best_s = 1e30;
  for (int r = 0; r < reps; ++r) {  // best of `reps`: the machine may be shared
    double t0 = now();
    pkemu::launch(bench_barrier, blocks, threads, 0, 0, iters, out);
    double t1 = now();
    pkemu::launch(bench_shuffle, blocks, threads, 0, 0, iters, out);
    double t2 = now();
    best_b = t1 - t0 < best_b ? t1 - t0 : best_b;
    best_s = t2 - t1 < best_s ? t2 - t1 : best_s;
  }
  double n = (double)blocks * threads * iters;
  printf("warp=%d threads_per_block=%d blocks=%d iters=%d\n", warpSize, threads, blocks, iters);
  printf("barrier_ns_per_thread=%.2f\n", best_b * 1e9 / n);
  printf("shuffle_ns_per_thread=%.2f\n", best_s * 1e9 / n);
  return 0;
}
