// A kernel that reads one element past its input (the last thread of the
// last block): the emulator reports the access with the line below.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void shiftLeft(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i + 1]; // OOB_LINE
}

int main() {
  const int n = 256;
  float *din, *dout;
  cudaMalloc(&din, n * sizeof(float));
  cudaMalloc(&dout, n * sizeof(float));
  cudaMemset(din, 0, n * sizeof(float));
  shiftLeft<<<n / 64, 64>>>(din, dout, n);
  cudaDeviceSynchronize();
  printf("PASS\n");
  return 0;
}
