// A benign shared-memory race: every thread that finds a negative element
// stores 1 into the same shared flag, with no barrier between the stores.
// The emulator reports it (a data race); validate --allow=race-shared
// accepts the program and marks its pass as relaxed.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void anyNegative(const int *in, int n, int *out) {
  __shared__ int found;
  if (threadIdx.x == 0)
    found = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && in[i] < 0)
    found = 1; // RACE_LINE
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.x] = found;
}

int main() {
  const int n = 256, blocks = 4;
  int h[n], r[blocks];
  for (int i = 0; i < n; ++i)
    h[i] = (i / 64 == 2 && i % 3 == 0) ? -i : i;
  int *din, *dout;
  cudaMalloc(&din, n * sizeof(int));
  cudaMalloc(&dout, blocks * sizeof(int));
  cudaMemcpy(din, h, n * sizeof(int), cudaMemcpyHostToDevice);
  anyNegative<<<blocks, n / blocks>>>(din, n, dout);
  cudaMemcpy(r, dout, blocks * sizeof(int), cudaMemcpyDeviceToHost);
  bool ok = r[0] == 0 && r[1] == 0 && r[2] == 1 && r[3] == 0;
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
