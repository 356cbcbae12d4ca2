// Third-party idiom: WARP_SIZE comes from the command line (-DWARP_SIZE=32,
// see program.conf).  Its spelling is outside the ported files, so native
// 64-lane warps cannot widen it: the port keeps logical 32-lane warps.
#include <cstdio>
#include <vector>

#ifndef WARP_SIZE
#error "build with -DWARP_SIZE=32"
#endif

__global__ void warpSums(const int *in, int *out) {
  const int lane = threadIdx.x % WARP_SIZE;
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = WARP_SIZE / 2; o > 0; o /= 2)
    v += __shfl_down_sync(0xffffffff, v, o);
  if (lane == 0)
    out[(blockIdx.x * blockDim.x + threadIdx.x) / WARP_SIZE] = v;
}

int main() {
  const int blocks = 2, threads = 128, n = blocks * threads, nw = n / 32;
  std::vector<int> h(n);
  for (int i = 0; i < n; ++i)
    h[i] = i % 11;
  int *din, *dout;
  cudaMalloc(&din, n * sizeof(int));
  cudaMalloc(&dout, nw * sizeof(int));
  cudaMemcpy(din, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  warpSums<<<blocks, threads>>>(din, dout);
  std::vector<int> r(nw);
  cudaMemcpy(r.data(), dout, nw * sizeof(int), cudaMemcpyDeviceToHost);
  for (int w = 0; w < nw; ++w) {
    int ref = 0;
    for (int i = 0; i < 32; ++i)
      ref += h[w * 32 + i];
    if (r[w] != ref) {
      std::printf("warp %d: got %d want %d\n", w, r[w], ref);
      return 1;
    }
  }
  std::printf("warp_size_define: ok\n");
  return 0;
}
