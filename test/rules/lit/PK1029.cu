// PK1029: cuBLASLt's matmul path becomes hipBLASLt's: the header, handle,
// descriptors, layouts, preference, heuristic and matmul, with the compute
// and scale types through PK1021; an attribute hipBLASLt lacks is flagged.
// RUN: rm -rf %t && %pk port -q --cuda-path=none --to hip -o %t %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DIAG
// RUN: FileCheck %s --match-full-lines --input-file=%t/hip/PK1029.hip
// RUN: %pk port -q --cuda-path=none --to hip --report %t/r.json -o %t/2 %s 2>/dev/null
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t/r.json
// REPORT: "rule": "PK1029",
// REPORT-NEXT: "why": "cublasLtHandle_t -> hipblasLtHandle_t"
#include <cublasLt.h>
// CHECK: #include <hipblaslt/hipblaslt.h>

int linear(cublasLtHandle_t lt, const float *W, const float *x, const float *b, float *y,
           int m, int n, int k, void *ws, size_t wsBytes) {
// CHECK: int linear(hipblasLtHandle_t lt, const float *W, const float *x, const float *b, float *y,
  cublasLtMatmulDesc_t desc;
// CHECK:   hipblasLtMatmulDesc_t desc;
  cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F);
// CHECK:   hipblasLtMatmulDescCreate(&desc, HIPBLAS_COMPUTE_32F, HIP_R_32F);
  cublasOperation_t t = CUBLAS_OP_T;
  cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSA, &t, sizeof(t));
// CHECK:   hipblasLtMatmulDescSetAttribute(desc, HIPBLASLT_MATMUL_DESC_TRANSA, &t, sizeof(t));
  cublasLtEpilogue_t epi = CUBLASLT_EPILOGUE_GELU_BIAS;
// CHECK:   hipblasLtEpilogue_t epi = HIPBLASLT_EPILOGUE_GELU_BIAS;
  cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof(epi));
  cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &b, sizeof(b));
// CHECK:   hipblasLtMatmulDescSetAttribute(desc, HIPBLASLT_MATMUL_DESC_BIAS_POINTER, &b, sizeof(b));
  cudaDataType_t st = CUDA_R_32F;
// DIAG: PK1029.cu:[[@LINE+1]]:40: warning: 'CUBLASLT_MATMUL_DESC_SCALE_TYPE' has no HIP counterpart: hipBLASLt fixes the compute and scale types when the descriptor is created: pass them to hipblasLtMatmulDescCreate [PK1010]
  cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_SCALE_TYPE, &st, sizeof(st));
  cublasLtMatrixLayout_t A, B, C;
// CHECK:   hipblasLtMatrixLayout_t A, B, C;
  cublasLtMatrixLayoutCreate(&A, CUDA_R_32F, k, m, k);
// CHECK:   hipblasLtMatrixLayoutCreate(&A, HIP_R_32F, k, m, k);
  cublasLtMatrixLayoutCreate(&B, CUDA_R_32F, k, n, k);
  cublasLtMatrixLayoutCreate(&C, CUDA_R_32F, m, n, m);
  int batch = 1;
  cublasLtMatrixLayoutSetAttribute(C, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &batch, sizeof(batch));
// CHECK:   hipblasLtMatrixLayoutSetAttribute(C, HIPBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &batch, sizeof(batch));
  cublasLtMatmulPreference_t pref;
  cublasLtMatmulPreferenceCreate(&pref);
// CHECK:   hipblasLtMatmulPreferenceCreate(&pref);
  cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &wsBytes,
                                       sizeof(wsBytes));
// CHECK:   hipblasLtMatmulPreferenceSetAttribute(pref, HIPBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &wsBytes,
  cublasLtMatmulHeuristicResult_t heur;
// CHECK:   hipblasLtMatmulHeuristicResult_t heur;
  int found = 0;
  cublasLtMatmulAlgoGetHeuristic(lt, desc, A, B, C, C, pref, 1, &heur, &found);
// CHECK:   hipblasLtMatmulAlgoGetHeuristic(lt, desc, A, B, C, C, pref, 1, &heur, &found);
  const float one = 1.0f, zero = 0.0f;
  cublasStatus_t s = cublasLtMatmul(lt, desc, &one, W, A, x, B, &zero, y, C, y, C, &heur.algo,
                                    ws, wsBytes, 0);
// CHECK:   hipblasStatus_t s = hipblasLtMatmul(lt, desc, &one, W, A, x, B, &zero, y, C, y, C, &heur.algo,
  cublasLtMatmulPreferenceDestroy(pref);
  cublasLtMatrixLayoutDestroy(A);
  cublasLtMatmulDescDestroy(desc);
// CHECK:   hipblasLtMatmulDescDestroy(desc);
  return s == CUBLAS_STATUS_SUCCESS ? 0 : 1;
}
// DIAG-NOT: warning
