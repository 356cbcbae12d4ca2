// PK1025: cuSPARSE's handles, descriptors, SpMV and enumerators become
// hipSPARSE's (the value type through PK1021); an error-string call hipSPARSE
// lacks is flagged.
// RUN: rm -rf %t && %pk port -q --cuda-path=none --to hip -o %t %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DIAG
// RUN: FileCheck %s --match-full-lines --input-file=%t/hip/PK1025.hip
// RUN: %pk port -q --cuda-path=none --to hip --report %t/r.json -o %t/2 %s 2>/dev/null
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t/r.json
// REPORT: "rule": "PK1025",
// REPORT-NEXT: "why": "cusparseHandle_t -> hipsparseHandle_t"
#include <cusparse.h>
// CHECK: #include <{{hip}}sparse/hipsparse.h>

int spmv(int m, int n, int nnz, int *rowptr, int *cols, float *vals, float *x, float *y) {
  cusparseHandle_t handle;
// CHECK:  hipsparseHandle_t handle;
  cusparseCreate(&handle);
// CHECK:  hipsparseCreate(&handle);
  cusparseSetPointerMode(handle, CUSPARSE_POINTER_MODE_HOST);
// CHECK:  hipsparseSetPointerMode(handle, HIPSPARSE_POINTER_MODE_HOST);
  cusparseSpMatDescr_t A;
  cusparseDnVecDescr_t vx, vy;
// CHECK:  hipsparseSpMatDescr_t A;
// CHECK:  hipsparseDnVecDescr_t vx, vy;
  cusparseCreateCsr(&A, m, n, nnz, rowptr, cols, vals, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                    CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F);
// CHECK:  hipsparseCreateCsr(&A, m, n, nnz, rowptr, cols, vals, HIPSPARSE_INDEX_32I, HIPSPARSE_INDEX_32I,
// CHECK:                    HIPSPARSE_INDEX_BASE_ZERO, HIP_R_32F);
  cusparseCreateDnVec(&vx, n, x, CUDA_R_32F);
  cusparseCreateDnVec(&vy, m, y, CUDA_R_32F);
  float one = 1.0f, zero = 0.0f;
  size_t bytes = 0;
  cusparseSpMV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, A, vx, &zero, vy,
                          CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, &bytes);
// CHECK:  hipsparseSpMV_bufferSize(handle, HIPSPARSE_OPERATION_NON_TRANSPOSE, &one, A, vx, &zero, vy,
// CHECK:                          HIP_R_32F, HIPSPARSE_SPMV_ALG_DEFAULT, &bytes);
  cusparseSpMVAlg_t alg = CUSPARSE_SPMV_CSR_ALG1;
// CHECK:  hipsparseSpMVAlg_t alg = HIPSPARSE_SPMV_CSR_ALG1;
  void *buf = nullptr;
  cudaMalloc(&buf, bytes);
  cusparseStatus_t st = cusparseSpMV(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, A, vx,
                                     &zero, vy, CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, buf);
// CHECK:  hipsparseStatus_t st = hipsparseSpMV(handle, HIPSPARSE_OPERATION_NON_TRANSPOSE, &one, A, vx,
// DIAG: PK1025.cu:[[@LINE+1]]:53: warning: 'cusparseGetErrorString' has no HIP counterpart: hipSPARSE 5.3 has no error-string function; print the hipsparseStatus_t value [PK1010]
  if (st != CUSPARSE_STATUS_SUCCESS) printf("%s\n", cusparseGetErrorString(st));
// CHECK:  if (st != HIPSPARSE_STATUS_SUCCESS) printf("%s\n", cusparseGetErrorString(st));
  cusparseDestroySpMat(A);
  cusparseDestroyDnVec(vx);
  cusparseDestroyDnVec(vy);
  cusparseDestroy(handle);
// CHECK:  hipsparseDestroy(handle);
  return st == CUSPARSE_STATUS_SUCCESS ? 0 : 1;
}
// DIAG-NOT: warning
