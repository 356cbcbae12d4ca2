// libcu++'s cuda::barrier (shim cuda/barrier): split arrive/wait phases order a block's
// shared memory as __syncthreads does. argv[1] selects the scenario.
#include <cuda/barrier>
#include <cstdio>
#include <cstring>
#include <utility>

__global__ void rounds(int* out, int n_rounds) {
  PKEMU_SHARED(bar, cuda::barrier<cuda::thread_scope_block>);
  PKEMU_SHARED(vals, int[128]);
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  int acc = 0;
  for (int r = 0; r < n_rounds; ++r) {
    vals[threadIdx.x] = (int)threadIdx.x * (r + 1);
    auto token = bar.arrive();
    bar.wait(std::move(token));
    acc += vals[(threadIdx.x + 1) % blockDim.x];  // a neighbour's value of this round
    bar.arrive_and_wait();                        // before the next round rewrites it
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// Without the second barrier a fast thread rewrites its value while its neighbour reads it.
__global__ void racy(int* out) {
  PKEMU_SHARED(bar, cuda::barrier<cuda::thread_scope_block>);
  PKEMU_SHARED(vals, int[128]);
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  vals[threadIdx.x] = 1;
  bar.arrive_and_wait();
  int v = vals[(threadIdx.x + 1) % blockDim.x];  // RACY_READ_LINE
  vals[threadIdx.x] = v + 1;                     // RACY_WRITE_LINE
  out[threadIdx.x] = v;
}

int main(int argc, char** argv) {
  const char* s = argc > 1 ? argv[1] : "";
  const int nb = 3, nt = 128, nr = 5;
  int *d, h[nb * nt];
  cudaMalloc(&d, sizeof h);
  if (!strcmp(s, "rounds")) {
    pkemu::launch(rounds, nb, nt, 0, 0, d, nr);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int b = 0; b < nb; ++b)
      for (int t = 0; t < nt; ++t) {
        int want = 0;
        for (int r = 0; r < nr; ++r) want += ((t + 1) % nt) * (r + 1);
        bad += h[b * nt + t] != want;
      }
    printf("rounds: %d wrong\n", bad);
  } else if (!strcmp(s, "racy")) {
    pkemu::launch(racy, 1, nt, 0, 0, d);
    cudaDeviceSynchronize();
    printf("racy: done\n");
  } else {
    printf("unknown scenario\n");
    return 2;
  }
  return 0;
}
