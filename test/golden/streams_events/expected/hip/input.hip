#include <hip/hip_runtime.h>

__global__ void fill(int *p, int v) { p[threadIdx.x] = v; }

float timed(int *d, int *h) {
  hipStream_t s1, s2;
  hipStreamCreate(&s1);
  hipStreamCreateWithFlags(&s2, hipStreamNonBlocking);
  hipEvent_t start, stop, ready;
  hipEventCreate(&start);
  hipEventCreate(&stop);
  hipEventCreateWithFlags(&ready, hipEventDisableTiming);
  hipEventRecord(start, s1);
  fill<<<1, 64, 0, s1>>>(d, 7);
  hipMemsetAsync(d + 64, 0, 64 * sizeof(int), s1);
  hipEventRecord(ready, s1);
  hipStreamWaitEvent(s2, ready, 0);
  hipMemcpyAsync(h, d, 128 * sizeof(int), hipMemcpyDeviceToHost, s2);
  hipEventRecord(stop, s2);
  hipEventSynchronize(stop);
  if (hipEventQuery(stop) == hipErrorNotReady) return -1.f;
  float ms = 0.f;
  hipEventElapsedTime(&ms, start, stop);
  hipStreamSynchronize(s1);
  hipStreamQuery(s2);
  hipEventDestroy(start);
  hipEventDestroy(stop);
  hipEventDestroy(ready);
  hipStreamDestroy(s1);
  hipStreamDestroy(s2);
  return ms;
}
