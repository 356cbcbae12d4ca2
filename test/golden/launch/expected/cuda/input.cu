#include <cuda_runtime.h>

template <int BLOCK, typename T>
__global__ void axpy(T a, const T *x, T *y, int n) {
  extern __shared__ unsigned char smem[];
  int i = blockIdx.x * BLOCK + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
  (void)smem;
}

__global__ void plain(float *y) { y[threadIdx.x] = 1.0f; }

void launch_all(float *x, float *y, int n, cudaStream_t stream) {
  dim3 grid((n + 127) / 128), block(128);
  axpy<128, float><<<grid, block, 0, stream>>>(2.0f, x, y, n);
  cudaFuncSetAttribute(axpy<128, float>,
                       cudaFuncAttributeMaxDynamicSharedMemorySize, 65536);
  void *args[] = {&y};
  cudaLaunchKernel(plain, dim3(1), dim3(32), args, 0, stream);
  int blocksPerSM = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocksPerSM, plain, 128, 0);
  cudaFuncAttributes attr;
  cudaFuncGetAttributes(&attr, plain);
}
