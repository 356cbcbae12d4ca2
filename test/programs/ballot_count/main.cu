// Third-party idiom: a ballot over the full 32-bit mask and __popc of it:
// how many lanes of each warp hold a positive value.
#include <cstdio>
#include <vector>

#define FULL_MASK 0xffffffff

__global__ void countPositive(const int *in, int *count) {
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  unsigned m = __ballot_sync(FULL_MASK, v > 0);
  if ((threadIdx.x & 31) == 0)
    atomicAdd(count, __popc(m));
}

int main() {
  const int blocks = 4, threads = 128, n = blocks * threads;
  std::vector<int> h(n);
  int ref = 0;
  for (int i = 0; i < n; ++i) {
    h[i] = (i * 7) % 5 - 2;
    ref += h[i] > 0;
  }
  int *din, *dc;
  cudaMalloc(&din, n * sizeof(int));
  cudaMalloc(&dc, sizeof(int));
  cudaMemcpy(din, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemset(dc, 0, sizeof(int));
  countPositive<<<blocks, threads>>>(din, dc);
  int r = -1;
  cudaMemcpy(&r, dc, sizeof(int), cudaMemcpyDeviceToHost);
  if (r != ref) {
    std::printf("got %d want %d\n", r, ref);
    return 1;
  }
  std::printf("ballot_count: ok\n");
  return 0;
}
