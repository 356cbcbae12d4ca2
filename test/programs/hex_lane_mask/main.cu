// Third-party idiom: lane and warp ids with hex masks and shifts, a warp
// sum with shuffles, per-warp partial sums in shared memory.
#include <cstdio>
#include <cstdlib>
#include <vector>

__global__ void blockSum(const int *in, int *out) {
  __shared__ int partial[32];
  const unsigned lane = threadIdx.x & 0x1f;
  const unsigned warp = threadIdx.x >> 5;
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_down_sync(0xFFFFFFFFu, v, o);
  if (lane == 0)
    partial[warp] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    int s = 0;
    for (unsigned w = 0; w < (blockDim.x >> 5); ++w)
      s += partial[w];
    out[blockIdx.x] = s;
  }
}

int main() {
  const int blocks = 8, threads = 256, n = blocks * threads;
  std::vector<int> h(n);
  for (int i = 0; i < n; ++i)
    h[i] = (i * 37) % 101 - 50;
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
  std::printf("hex_lane_mask: ok\n");
  return 0;
}
