// Third-party idiom: warp-aggregated atomics with coalesced_threads(); the
// port flags the group (PK1013: up to 64 lanes on a wave) and the idiom
// stays correct for any group size.
#include <cooperative_groups.h>
#include <cstdio>
#include <vector>

namespace cg = cooperative_groups;

__global__ void compact(const int *in, int *out, int *count, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && in[i] % 3 == 0) {
    cg::coalesced_group g = cg::coalesced_threads();
    int base = 0;
    if (g.thread_rank() == 0)
      base = atomicAdd(count, (int)g.size());
    base = g.shfl(base, 0);
    out[base + g.thread_rank()] = in[i];
  }
}

int main() {
  const int n = 512;
  std::vector<int> h(n);
  int ref = 0;
  long long refSum = 0;
  for (int i = 0; i < n; ++i) {
    h[i] = (i * 7) % 23;
    if (h[i] % 3 == 0) {
      ++ref;
      refSum += h[i];
    }
  }
  int *din, *dout, *dc;
  cudaMalloc(&din, n * sizeof(int));
  cudaMalloc(&dout, n * sizeof(int));
  cudaMalloc(&dc, sizeof(int));
  cudaMemcpy(din, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemset(dc, 0, sizeof(int));
  compact<<<n / 128, 128>>>(din, dout, dc, n);
  int c = 0;
  cudaMemcpy(&c, dc, sizeof(int), cudaMemcpyDeviceToHost);
  std::vector<int> r(n);
  cudaMemcpy(r.data(), dout, n * sizeof(int), cudaMemcpyDeviceToHost);
  long long sum = 0;
  for (int i = 0; i < c; ++i)
    sum += r[i];
  if (c != ref || sum != refSum) {
    std::printf("got %d values (sum %lld), want %d (sum %lld)\n", c, sum, ref, refSum);
    return 1;
  }
  std::printf("coop_coalesced: ok\n");
  return 0;
}
