#include <cuda_runtime.h>

__global__ void fill(int *p, int v) { p[threadIdx.x] = v; }

float timed(int *d, int *h) {
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking);
  cudaEvent_t start, stop, ready;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventCreateWithFlags(&ready, cudaEventDisableTiming);
  cudaEventRecord(start, s1);
  fill<<<1, 64, 0, s1>>>(d, 7);
  cudaMemsetAsync(d + 64, 0, 64 * sizeof(int), s1);
  cudaEventRecord(ready, s1);
  cudaStreamWaitEvent(s2, ready, 0);
  cudaMemcpyAsync(h, d, 128 * sizeof(int), cudaMemcpyDeviceToHost, s2);
  cudaEventRecord(stop, s2);
  cudaEventSynchronize(stop);
  if (cudaEventQuery(stop) == cudaErrorNotReady) return -1.f;
  float ms = 0.f;
  cudaEventElapsedTime(&ms, start, stop);
  cudaStreamSynchronize(s1);
  cudaStreamQuery(s2);
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaEventDestroy(ready);
  cudaStreamDestroy(s1);
  cudaStreamDestroy(s2);
  return ms;
}
