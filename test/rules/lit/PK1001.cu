// PK1001: calls, enumerators and flag macros of the CUDA runtime API get
// their HIP names (rules/cuda2hip/runtime.yaml); only the identifier changes,
// arguments and casts stay as written, inside macro bodies too.  An entry's
// note goes with the edit into the report.
// RUN: rm -rf %t && %pk port -q --to hip --report %t/r.json -o %t %s 2>&1 \
// RUN:   | count 0
// RUN: FileCheck %s --match-full-lines --input-file=%t/hip/PK1001.hip
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t/r.json
// REPORT:      "counts": {
// REPORT-NEXT:   "PK1001": 23,
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

#define CUDA_CHECK(call)                                                       \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      std::fprintf(stderr, "%s\n", cudaGetErrorString(err_));                  \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)
// CHECK:    if (err_ != hipSuccess) {                                                 \
// CHECK:      std::fprintf(stderr, "%s\n", hipGetErrorString(err_));                  \
// REPORT:      "line": [[@LINE-6]],
// REPORT-NEXT: "offset": {{[0-9]+}},
// REPORT-NEXT: "replacement": "hipGetErrorString",
// REPORT-NEXT: "rule": "PK1001",

__constant__ float coeffs[16];

__global__ void scale(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= coeffs[i % 16];
}

float run(const float *h, int n) {
  float *d = nullptr, *pinned = nullptr;
  int sms = 0;
  cudaStream_t stream;
  cudaEvent_t start, stop;
  CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
// CHECK:  CUDA_CHECK(hipDeviceGetAttribute(&sms, hipDeviceAttributeMultiprocessorCount, 0));
// REPORT:      "replacement": "hipDeviceAttributeMultiprocessorCount",
// REPORT-NEXT: "rule": "PK1001",
// REPORT-NEXT: "why": "cudaDevAttrMultiProcessorCount -> hipDeviceAttributeMultiprocessorCount (counts compute units on AMD GPUs)"
  CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
// CHECK:  CUDA_CHECK(hipStreamCreateWithFlags(&stream, hipStreamNonBlocking));
  CUDA_CHECK(cudaMalloc((void **)&d, n * sizeof(float)));
// CHECK:  CUDA_CHECK(hipMalloc((void **)&d, n * sizeof(float)));
  CUDA_CHECK(cudaMallocHost(&pinned, n * sizeof(float)));
// CHECK:  CUDA_CHECK(hipHostMalloc(&pinned, n * sizeof(float)));
// REPORT:      "line": [[@LINE-2]],
// REPORT-NEXT: "offset": {{[0-9]+}},
// REPORT-NEXT: "replacement": "hipHostMalloc",
// REPORT-NEXT: "rule": "PK1001",
// REPORT-NEXT: "why": "cudaMallocHost -> hipHostMalloc (HIP's C++ overload hipHostMalloc(T**, size_t, flags = hipHostMallocDefault) takes the place of cudaMallocHost)"
  CUDA_CHECK(cudaMemcpyToSymbol(coeffs, h, 16 * sizeof(float)));
// CHECK:  CUDA_CHECK(hipMemcpyToSymbol(coeffs, h, 16 * sizeof(float)));
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, stream);
// CHECK:  hipMemcpyAsync(d, h, n * sizeof(float), hipMemcpyHostToDevice, stream);
  cudaEventRecord(start, stream);
  scale<<<(n + 255) / 256, 256, 0, stream>>>(d, n);
// CHECK:  scale<<<(n + 255) / 256, 256, 0, stream>>>(d, n);
  cudaEventRecord(stop, stream);
  cudaEventSynchronize(stop);
  float ms = 0.f;
  cudaEventElapsedTime(&ms, start, stop);
// CHECK:  hipEventElapsedTime(&ms, start, stop);
  if (cudaGetLastError() == cudaErrorMemoryAllocation)
// CHECK:  if (hipGetLastError() == hipErrorOutOfMemory)
// REPORT:      "replacement": "hipErrorOutOfMemory",
// REPORT-NEXT: "rule": "PK1001",
    std::abort();
  cudaFreeHost(pinned);
// CHECK:  hipHostFree(pinned);
  cudaFree(d);
  return ms;
}

// A stream callback: CUDART_CB is a calling convention HIP has no macro for.
void CUDART_CB done(cudaStream_t, cudaError_t, void *flag) { *(int *)flag = 1; }
// CHECK: void __host__ done(hipStream_t, hipError_t, void *flag) { *(int *)flag = 1; }
void enqueue(cudaStream_t s, int *flag) { cudaStreamAddCallback(s, done, flag, 0); }
// CHECK: void enqueue(hipStream_t s, int *flag) { hipStreamAddCallback(s, done, flag, 0); }
