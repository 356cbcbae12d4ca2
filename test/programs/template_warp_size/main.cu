// Third-party idiom: the warp width as a constexpr constant passed as a
// template argument.
#include <cstdio>
#include <vector>

constexpr int kWarpLanes = 32;

template <int WIDTH>
__device__ int segmentSum(int v) {
  for (int o = WIDTH / 2; o > 0; o /= 2)
    v += __shfl_xor_sync(0xffffffff, v, o, WIDTH);
  return v;
}

__global__ void sums(const int *in, int *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  out[t] = segmentSum<kWarpLanes>(in[t]);
}

int main() {
  const int blocks = 2, threads = 64, n = blocks * threads;
  std::vector<int> h(n);
  for (int i = 0; i < n; ++i)
    h[i] = (i * 3) % 7;
  int *din, *dout;
  cudaMalloc(&din, n * sizeof(int));
  cudaMalloc(&dout, n * sizeof(int));
  cudaMemcpy(din, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  sums<<<blocks, threads>>>(din, dout);
  std::vector<int> r(n);
  cudaMemcpy(r.data(), dout, n * sizeof(int), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i) {
    int ref = 0;
    for (int j = 0; j < 32; ++j)
      ref += h[i / 32 * 32 + j];
    if (r[i] != ref) {
      std::printf("thread %d: got %d want %d\n", i, r[i], ref);
      return 1;
    }
  }
  std::printf("template_warp_size: ok\n");
  return 0;
}
