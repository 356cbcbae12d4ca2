// PK1025: cuSPARSE's handles, descriptors, SpMV and enumerators become
// hipSPARSE's (the value type through PK1021); an error-string call hipSPARSE
// lacks is flagged.  The rest of the API that rules.lib_coverage keeps in the
// table too: fill mode and diagonal type, sparse vectors, the triangular solve
// SpSV (whose hipSPARSE 2 form takes one more argument: the note says so).
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

int lower_solve(cusparseHandle_t handle, cusparseSpMatDescr_t L, cusparseDnVecDescr_t vx,
                cusparseDnVecDescr_t vy, int n, int nnz, int *idx, float *vals, void *buf) {
  cusparseFillMode_t fill = CUSPARSE_FILL_MODE_LOWER;
  cusparseDiagType_t diag = CUSPARSE_DIAG_TYPE_NON_UNIT;
// CHECK:  hipsparseFillMode_t fill = HIPSPARSE_FILL_MODE_LOWER;
// CHECK:  hipsparseDiagType_t diag = HIPSPARSE_DIAG_TYPE_NON_UNIT;
  cusparseSpMatSetAttribute(L, CUSPARSE_SPMAT_FILL_MODE, &fill, sizeof(fill));
// CHECK:  hipsparseSpMatSetAttribute(L, HIPSPARSE_SPMAT_FILL_MODE, &fill, sizeof(fill));
  cusparseSpVecDescr_t sv;
  cusparseCreateSpVec(&sv, n, nnz, idx, vals, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO,
                      CUDA_R_32F);
// CHECK:  hipsparseSpVecDescr_t sv;
// CHECK:  hipsparseCreateSpVec(&sv, n, nnz, idx, vals, HIPSPARSE_INDEX_32I, HIPSPARSE_INDEX_BASE_ZERO,
// CHECK:                      HIP_R_32F);
  cusparseSpSVDescr_t spsv;
  cusparseSpSV_createDescr(&spsv);
// CHECK:  hipsparseSpSVDescr_t spsv;
// CHECK:  hipsparseSpSV_createDescr(&spsv);
  const float one = 1.0f;
  cusparseSpSV_analysis(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, L, vx, vy, CUDA_R_32F,
                        CUSPARSE_SPSV_ALG_DEFAULT, spsv, buf);
// CHECK:  hipsparseSpSV_analysis(handle, HIPSPARSE_OPERATION_NON_TRANSPOSE, &one, L, vx, vy, HIP_R_32F,
// CHECK:                        HIPSPARSE_SPSV_ALG_DEFAULT, spsv, buf);
  cusparseStatus_t st = cusparseSpSV_solve(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, L, vx,
                                           vy, CUDA_R_32F, CUSPARSE_SPSV_ALG_DEFAULT, spsv);
// CHECK:  hipsparseStatus_t st = hipsparseSpSV_solve(handle, HIPSPARSE_OPERATION_NON_TRANSPOSE, &one, L, vx,
// REPORT: "replacement": "hipsparseSpSV_solve",
// REPORT-NEXT: "rule": "PK1025",
// REPORT-NEXT: "why": "cusparseSpSV_solve -> hipsparseSpSV_solve (hipSPARSE before 3.0 {{.*}} takes one more argument after spsvDescr, the external buffer given to hipsparseSpSV_analysis{{.*}}"
  cusparseSpSV_destroyDescr(spsv);
  cusparseDestroySpVec(sv);
// CHECK:  hipsparseSpSV_destroyDescr(spsv);
// CHECK:  hipsparseDestroySpVec(sv);
  return st == CUSPARSE_STATUS_SUCCESS ? 0 : 1;
}
// DIAG-NOT: warning
