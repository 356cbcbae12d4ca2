// Input of PK1033.cu: HIP's API names the HIP -> CUDA tables do not know.
#include <hip/hip_runtime.h>
__global__ void k(int *p) { p[threadIdx.x] = 1; }
int main() {
  int *d; hipMalloc(&d, 128);
  hipExtMallocWithFlags((void **)&d, 128, hipMallocSignalMemory);
  hipLaunchKernelGGL(k, dim3(1), dim3(64), 0, 0, d);
  return 0;
}
