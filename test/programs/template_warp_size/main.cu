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

// The width as a class template's constant, a default template argument, a
// lane mask W - 1 and a shared array of N / W slots: every instantiation has
// W = 32, which one edit of the template could not widen for some and not
// others, so the kernel keeps 32-lane logical warps.
template <int W>
struct WarpCount {
  static constexpr int kWidth = W;
  __device__ static int ones(bool p) {
    return __popc(__ballot_sync(0xffffffff, p));
  }
};

template <int N, int W = 32>
__global__ void positives(const int *in, int *out) {
  __shared__ int part[N / W];
  int t = threadIdx.x;
  int lane = t & (W - 1), warp = t / WarpCount<W>::kWidth;
  int c = WarpCount<W>::ones(in[blockIdx.x * N + t] > 3);
  if (lane == 0)
    part[warp] = c;
  __syncthreads();
  if (t == 0) {
    int s = 0;
    for (int i = 0; i < N / W; ++i)
      s += part[i];
    out[blockIdx.x] = s;
  }
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
  int *dcount;
  cudaMalloc(&dcount, blocks * sizeof(int));
  positives<threads><<<blocks, threads>>>(din, dcount);
  std::vector<int> counts(blocks);
  cudaMemcpy(counts.data(), dcount, blocks * sizeof(int),
             cudaMemcpyDeviceToHost);
  for (int b = 0; b < blocks; ++b) {
    int ref = 0;
    for (int j = 0; j < threads; ++j)
      ref += h[b * threads + j] > 3;
    if (counts[b] != ref) {
      std::printf("block %d: %d positives, want %d\n", b, counts[b], ref);
      return 1;
    }
  }
  std::printf("template_warp_size: ok\n");
  return 0;
}
