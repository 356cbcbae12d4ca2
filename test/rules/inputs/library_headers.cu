// cuBLAS (v2) host calls and cuda_fp8.h element-wise quantisation, as in
// training code bases: the bundled declarations must cover both.
#include <cublas_v2.h>
#include <cuda_fp8.h>
#include <cstdio>
__global__ void quant(const float *x, __nv_fp8_e4m3 *q, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) q[i] = __nv_fp8_e4m3(x[i] * s);
}
__global__ void dequant(const __nv_fp8_e5m2 *q, float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = float(q[i]);
}
int main() {
  cublasHandle_t h;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) return 1;
  float a = 1.f, b = 0.f, *A = nullptr, *B = nullptr, *C = nullptr;
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_T, 4, 4, 4, &a, A, 4, B, 4, &b, C, 4);
  cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, 4, &a, A, CUDA_R_32F, 4, B, CUDA_R_32F, 4, &b, C, CUDA_R_32F, 4, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
  cublasSetMathMode(h, CUBLAS_TF32_TENSOR_OP_MATH);
  printf("%s\n", cublasGetStatusString(CUBLAS_STATUS_SUCCESS));
  cublasDestroy(h);
}
