// Sum of a large vector: grid-stride accumulation, warp shuffles, one
// partial per warp in shared memory, a second warp pass and one atomicAdd per
// block.  Default: 64 Mi floats (256 MB).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "bench_common.h"

__inline__ __device__ float warpReduce(float v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);
  return v;
}

__global__ void reduceSum(const float *in, size_t n, float *out) {
  __shared__ float partial[32];
  float s = 0.0f;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    s += in[i];
  s = warpReduce(s);
  if (threadIdx.x % 32 == 0) partial[threadIdx.x / 32] = s;
  __syncthreads();
  if (threadIdx.x < 32) {
    s = threadIdx.x < blockDim.x / 32 ? partial[threadIdx.x] : 0.0f;
    s = warpReduce(s);
    if (threadIdx.x == 0) atomicAdd(out, s);
  }
}

BENCH_NATIVE static double sumHost(const float *in, size_t n) {
  double s = 0.0;
  for (size_t i = 0; i < n; ++i) s += in[i];
  return s;
}

BENCH_NATIVE static void fill(float *p, size_t n, uint32_t seed) {
  for (size_t i = 0; i < n; ++i) p[i] = (float)(benchLcg(seed) >> 8) / 16777216.0f - 0.5f;
}

int main(int argc, char **argv) {
  size_t n = argc > 1 ? (size_t)atoll(argv[1]) : (size_t)64 << 20;
  std::vector<float> in(n);
  fill(in.data(), n, 13u);
  if (int reps = benchNativeReps()) {
    for (int r = 0; r < reps; ++r) {
      benchClobber();
      volatile double sink = sumHost(in.data(), n);
      (void)sink;
    }
    return 0;
  }
  float *dIn, *dOut;
  cudaMalloc((void **)&dIn, n * sizeof(float));
  cudaMalloc((void **)&dOut, sizeof(float));
  cudaMemcpy(dIn, in.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemset(dOut, 0, sizeof(float));
  double t0 = benchNow();
  reduceSum<<<264, 512>>>(dIn, n, dOut);
  cudaDeviceSynchronize();
  double emulated = benchNow() - t0;
  t0 = benchNow();
  double ref = sumHost(in.data(), n);
  double native = benchNow() - t0;
  float got = 0.0f;
  cudaMemcpy(&got, dOut, sizeof(float), cudaMemcpyDeviceToHost);
  double err = fabs(got - ref);
  benchReport("reduce_sum", emulated, native);
  printf("%zu elements: sum %.3f (host %.3f) %s\n", n, got, ref, err < 1.0 ? "PASS" : "FAIL");
  return err < 1.0 ? 0 : 1;
}
