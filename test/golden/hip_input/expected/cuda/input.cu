// HIP source ported back to CUDA.
#include <cuda_runtime.h>

#define HIP_CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) return e; } while (0)

__device__ float wave_sum(float v) {
  for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o, 32);
  return v;
}

// port-kernel: warning: HIP's __ballot returns 64 bits for a 64-lane wave; CUDA's __ballot_sync returns 32 bits for a 32-lane warp: check code that uses the upper half [PK4011]
__device__ int count_positive(float v) { return __popcll(__ballot_sync(0xffffffffu, v > 0.f)); }

__global__ void add(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

cudaError_t run(const float *a, const float *b, float *c, int n) {
  float *da, *db, *dc;
  HIP_CHECK(cudaMalloc(&da, n * sizeof(float)));
  HIP_CHECK(cudaMalloc(&db, n * sizeof(float)));
  HIP_CHECK(cudaMalloc(&dc, n * sizeof(float)));
  cudaStream_t s;
  HIP_CHECK(cudaStreamCreate(&s));
  HIP_CHECK(cudaMemcpyAsync(da, a, n * sizeof(float), cudaMemcpyHostToDevice, s));
  HIP_CHECK(cudaMemcpyAsync(db, b, n * sizeof(float), cudaMemcpyHostToDevice, s));
  add<<<dim3((n + 255) / 256), dim3(256), 0, s>>>(da, db, dc, n);
  HIP_CHECK(cudaGetLastError());
  HIP_CHECK(cudaMemcpyAsync(c, dc, n * sizeof(float), cudaMemcpyDeviceToHost, s));
  HIP_CHECK(cudaStreamSynchronize(s));
  cudaStreamDestroy(s);
  cudaFree(da); cudaFree(db); cudaFree(dc);
  return cudaSuccess;
}
