// Third-party idiom: cooperative groups, cg::reduce inside a template over
// the group type, <cooperative_groups/reduce.h>, no runtime include.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cstdio>
#include <vector>

namespace cg = cooperative_groups;

template <typename Group>
__device__ float groupSum(const Group &g, float v) {
  return cg::reduce(g, v, cg::plus<float>());
}

__global__ void tileSums(const float *in, float *out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  float s = groupSum(tile, v);
  if (tile.thread_rank() == 0)
    out[(blockIdx.x * blockDim.x + threadIdx.x) / 32] = s;
}

int main() {
  const int blocks = 4, threads = 128, n = blocks * threads, nt = n / 32;
  std::vector<float> h(n);
  for (int i = 0; i < n; ++i)
    h[i] = float(i % 13) * 0.5f;
  float *din, *dout;
  cudaMalloc(&din, n * sizeof(float));
  cudaMalloc(&dout, nt * sizeof(float));
  cudaMemcpy(din, h.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  tileSums<<<blocks, threads>>>(din, dout);
  std::vector<float> r(nt);
  cudaMemcpy(r.data(), dout, nt * sizeof(float), cudaMemcpyDeviceToHost);
  for (int t = 0; t < nt; ++t) {
    float ref = 0.f;
    for (int i = 0; i < 32; ++i)
      ref += h[t * 32 + i];
    if (r[t] != ref) {
      std::printf("tile %d: got %f want %f\n", t, r[t], ref);
      return 1;
    }
  }
  std::printf("cg_reduce_template: ok\n");
  return 0;
}
