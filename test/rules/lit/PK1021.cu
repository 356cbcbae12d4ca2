// PK1021: cuBLAS handles, calls, enumerators and the library data types of
// the *Ex calls become hipBLAS's; TF32 math becomes rocBLAS's full FP32.  The
// routines beyond GEMM that rules.lib_coverage keeps in the table (a triangular
// solve, batched LU) too, and a note says where hipBLAS declares other types.
// RUN: rm -rf %t && %pk port -q --cuda-path=none --to hip --report %t/r.json -o %t %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DIAG --allow-empty
// RUN: FileCheck %s --match-full-lines --input-file=%t/hip/PK1021.hip
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t/r.json
#include <cublas_v2.h>

void linear(cublasHandle_t handle, cudaStream_t stream, const float *w, const float *x,
            float *y, int m, int n, int k) {
// CHECK: void linear(hipblasHandle_t handle, hipStream_t stream, const float *w, const float *x,
  const float one = 1.0f, zero = 0.0f;
  cublasSetStream(handle, stream);
// CHECK:  hipblasSetStream(handle, stream);
  cublasStatus_t st = cublasSgemm(handle, CUBLAS_OP_T, CUBLAS_OP_N, m, n, k, &one, w, k, x, k,
                                  &zero, y, m);
// CHECK:  hipblasStatus_t st = hipblasSgemm(handle, HIPBLAS_OP_T, HIPBLAS_OP_N, m, n, k, &one, w, k, x, k,
  if (st != CUBLAS_STATUS_SUCCESS) return;
// CHECK:  if (st != HIPBLAS_STATUS_SUCCESS) return;
  cublasGemmEx(handle, CUBLAS_OP_T, CUBLAS_OP_N, m, n, k, &one, w, CUDA_R_32F, k, x,
               CUDA_R_32F, k, &zero, y, CUDA_R_32F, m, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
// CHECK:  hipblasGemmEx(handle, HIPBLAS_OP_T, HIPBLAS_OP_N, m, n, k, &one, w, HIP_R_32F, k, x,
// CHECK:               HIP_R_32F, k, &zero, y, HIP_R_32F, m, HIPBLAS_COMPUTE_32F, HIPBLAS_GEMM_DEFAULT);
// REPORT: "replacement": "hipblasGemmEx",
// REPORT-NEXT: "rule": "PK1021",
// REPORT-NEXT: "why": "cublasGemmEx -> hipblasGemmEx (hipBLAS takes hipDataType and hipblasComputeType_t here only with HIPBLAS_V2 defined before <hipblas/hipblas.h> (ROCm 6; the default from ROCm 7): compile with -DHIPBLAS_V2)"
  cublasSetMathMode(handle, CUBLAS_TF32_TENSOR_OP_MATH);
// CHECK:  hipblasSetMathMode(handle, HIPBLAS_DEFAULT_MATH);
// REPORT: "why": "CUBLAS_TF32_TENSOR_OP_MATH -> HIPBLAS_DEFAULT_MATH (rocBLAS has no TF32 math mode: HIPBLAS_DEFAULT_MATH multiplies in full FP32{{.*}}"
}

void lu_solve(cublasHandle_t handle, const double *L, double *B, int n, int nrhs,
              double *const *As, const double *const *Ainv, double *const *Cs, int *piv,
              int *info, int batch) {
// CHECK: void lu_solve(hipblasHandle_t handle, const double *L, double *B, int n, int nrhs,
  const double one = 1.0;
  cublasDtrsm(handle, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_UNIT, n,
              nrhs, &one, L, n, B, n);
// CHECK:  hipblasDtrsm(handle, HIPBLAS_SIDE_LEFT, HIPBLAS_FILL_MODE_LOWER, HIPBLAS_OP_N, HIPBLAS_DIAG_UNIT, n,
  cublasDgetrfBatched(handle, n, As, n, piv, info, batch);
// CHECK:  hipblasDgetrfBatched(handle, n, As, n, piv, info, batch);
  cublasDgetriBatched(handle, n, Ainv, n, piv, Cs, n, info, batch);
// CHECK:  hipblasDgetriBatched(handle, n, Ainv, n, piv, Cs, n, info, batch);
// REPORT: "replacement": "hipblasDgetriBatched",
// REPORT-NEXT: "rule": "PK1021",
// REPORT-NEXT: "why": "cublasDgetriBatched -> hipblasDgetriBatched (hipBLAS declares A as T *const[] and the pivots as int * (cuBLAS: const T *const[] and const int *): arrays or pivots declared const need a cast)"
}
// DIAG-NOT: warning
