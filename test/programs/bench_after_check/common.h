// Shared setup of a kernel-development harness: error checks, cuBLAS and
// cuBLASLt handles created once, random inputs, a CPU comparison and a
// benchmark loop timed with events (the shape of llm.c's dev/cuda/common.h).
#pragma once
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <cuda_runtime.h>
#include <cublas_v2.h>
#include <cublasLt.h>

inline void cuda_check(cudaError_t e, const char *file, int line) {
  if (e != cudaSuccess) {
    std::printf("[CUDA ERROR] at %s:%d\n%s\n", file, line, cudaGetErrorString(e));
    std::exit(EXIT_FAILURE);
  }
}
#define cudaCheck(e) (cuda_check((e), __FILE__, __LINE__))
inline void cublas_check(cublasStatus_t s, const char *file, int line) {
  if (s != CUBLAS_STATUS_SUCCESS) {
    std::printf("[cuBLAS ERROR] %d at %s:%d\n", (int)s, file, line);
    std::exit(EXIT_FAILURE);
  }
}
#define cublasCheck(s) (cublas_check((s), __FILE__, __LINE__))

static cublasHandle_t cublas_handle;
static cublasLtHandle_t cublaslt_handle;
static void *lt_workspace = nullptr;
static const size_t lt_workspace_size = 1 << 20;

inline void setup_main() {
  srand(0);
  cudaDeviceProp prop;
  cudaCheck(cudaGetDeviceProperties(&prop, 0));
  cublasCheck(cublasCreate(&cublas_handle));
  cublasCheck(cublasLtCreate(&cublaslt_handle));
  cudaCheck(cudaMalloc(&lt_workspace, lt_workspace_size));
  int tf32 = prop.major >= 8;
  cublasCheck(cublasSetMathMode(cublas_handle, tf32 ? CUBLAS_TF32_TENSOR_OP_MATH : CUBLAS_DEFAULT_MATH));
}

inline float *make_random(size_t n) {
  float *p = (float *)std::malloc(n * sizeof(float));
  for (size_t i = 0; i < n; ++i) p[i] = ((float)rand() / RAND_MAX) * 2.0f - 1.0f;
  return p;
}

inline void validate_result(const float *device, const float *ref, const char *name, size_t n,
                            float tol) {
  float *h = (float *)std::malloc(n * sizeof(float));
  cudaCheck(cudaMemcpy(h, device, n * sizeof(float), cudaMemcpyDeviceToHost));
  for (size_t i = 0; i < n; ++i)
    if (std::fabs(h[i] - ref[i]) > tol + std::fabs(ref[i]) * 1e-5f) {
      std::printf("Mismatch of %s at %zu: CPU_ref: %f vs GPU: %f\n", name, i, ref[i], h[i]);
      std::exit(EXIT_FAILURE);
    }
  std::free(h);
}

template <class Kernel, class... Args>
float benchmark_kernel(int repeats, Kernel kernel, Args &&...args) {
  cudaEvent_t start, stop;
  cudaCheck(cudaEventCreate(&start));
  cudaCheck(cudaEventCreate(&stop));
  cudaCheck(cudaEventRecord(start, nullptr));
  for (int i = 0; i < repeats; ++i) kernel(std::forward<Args>(args)...);
  cudaCheck(cudaEventRecord(stop, nullptr));
  cudaCheck(cudaEventSynchronize(stop));
  float ms = 0.f;
  cudaCheck(cudaEventElapsedTime(&ms, start, stop));
  return ms / repeats;
}
