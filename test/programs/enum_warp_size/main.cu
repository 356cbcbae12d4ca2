// Third-party idiom: the warp width as an enumerator, in a block reduction
// (warp sums, one shared slot per warp, the first thread adds the slots).
#include <cstdio>
#include <vector>

enum { kWarpSize = 32, kMaxWarps = 1024 / kWarpSize };

__global__ void blockSum(const int *in, int *out) {
  __shared__ int slots[kMaxWarps];
  int lane = threadIdx.x % kWarpSize;
  int warp = threadIdx.x / kWarpSize;
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = kWarpSize / 2; o > 0; o /= 2)
    v += __shfl_down_sync(0xffffffff, v, o);
  if (lane == 0)
    slots[warp] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    int s = 0;
    for (int w = 0; w < (int)blockDim.x / kWarpSize; ++w)
      s += slots[w];
    out[blockIdx.x] = s;
  }
}

int main() {
  const int blocks = 3, threads = 256, n = blocks * threads;
  std::vector<int> h(n);
  for (int i = 0; i < n; ++i)
    h[i] = (i * 13) % 17 - 8;
  int *din, *dout;
  cudaMalloc(&din, n * sizeof(int));
  cudaMalloc(&dout, blocks * sizeof(int));
  cudaMemcpy(din, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  blockSum<<<blocks, threads>>>(din, dout);
  std::vector<int> r(blocks);
  cudaMemcpy(r.data(), dout, blocks * sizeof(int), cudaMemcpyDeviceToHost);
  for (int b = 0; b < blocks; ++b) {
    int ref = 0;
    for (int i = 0; i < threads; ++i)
      ref += h[b * threads + i];
    if (r[b] != ref) {
      std::printf("block %d: got %d want %d\n", b, r[b], ref);
      return 1;
    }
  }
  std::printf("enum_warp_size: ok\n");
  return 0;
}
