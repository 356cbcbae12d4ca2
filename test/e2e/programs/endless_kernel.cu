// A kernel that never finishes (validate's --timeout ends the run in the middle of its launch):
// the launch statistics still count its time as kernel time.
#include <cstdio>

__global__ void endless(unsigned* out) {
  unsigned x = threadIdx.x + 1;
  for (;;) {
    x = x * 1664525u + 1013904223u;
    if (x == 0xdeadbeefu) out[0] = x;
  }
}

int main() {
  unsigned* d;
  cudaMalloc(&d, sizeof(unsigned));
  printf("launching\n");
  endless<<<1, 1>>>(d);
  cudaDeviceSynchronize();
  printf("not reached\n");
  return 0;
}
