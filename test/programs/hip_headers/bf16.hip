// A hand-written HIP program for ROCm 6: __hip_bfloat16 from <hip/hip_bf16.h>
// (which ROCm 5.2 does not have) with implicit conversions from float.
#include <hip/hip_runtime.h>
#include <hip/hip_bf16.h>
#include <cstdio>

__global__ void halve(__hip_bfloat16 *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] * 0.5f;
}

int main() {
  const int n = 256;
  float h[n];
  for (int i = 0; i < n; ++i)
    h[i] = float(i);
  float *din;
  __hip_bfloat16 *dout;
  hipMalloc(&din, n * sizeof(float));
  hipMalloc(&dout, n * sizeof(__hip_bfloat16));
  hipMemcpy(din, h, n * sizeof(float), hipMemcpyHostToDevice);
  hipLaunchKernelGGL(halve, dim3(n / 64), dim3(64), 0, 0, dout, din, n);
  __hip_bfloat16 r[n];
  hipMemcpy(r, dout, n * sizeof(__hip_bfloat16), hipMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i)
    if (float(r[i]) != float(i) * 0.5f) {
      std::printf("mismatch at %d\n", i);
      return 1;
    }
  std::printf("bf16: ok\n");
  return 0;
}
