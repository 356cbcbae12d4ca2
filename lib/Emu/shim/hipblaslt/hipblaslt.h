//===- hipblaslt/hipblaslt.h - hipBLASLt for the emulator --------*- C++ -*-===//
// Rules: none (emulator runtime)
//
// hipBLASLt's matmul path, the counterpart of cublasLt.h (PK1029): a handle,
// matmul descriptors (TRANSA, TRANSB, EPILOGUE, BIAS_POINTER,
// BIAS_DATA_TYPE, EPILOGUE_AUX_POINTER, EPILOGUE_AUX_LD), column-major matrix
// layouts with BATCH_COUNT and STRIDED_BATCH_OFFSET, preferences, the
// heuristic (one algorithm, no workspace) and hipblasLtMatmul, with hipBLASLt
// 0.11's (ROCm 6.3) enumerator values.  The matmul is pkemu/blaslt.h's, shared
// with the cuBLASLt shim, so an original and its port compute the same.
//
//===----------------------------------------------------------------------===//
#ifndef PKEMU_HIPBLASLT_H
#define PKEMU_HIPBLASLT_H
#include "../hipblas/hipblas.h"
#include "../pkemu/blaslt.h"
#include <cstdint>

typedef enum {
  HIPBLASLT_EPILOGUE_DEFAULT = 1,
  HIPBLASLT_EPILOGUE_RELU = 2,
  HIPBLASLT_EPILOGUE_BIAS = 4,
  HIPBLASLT_EPILOGUE_RELU_BIAS = 6,
  HIPBLASLT_EPILOGUE_GELU = 32,
  HIPBLASLT_EPILOGUE_GELU_BIAS = 36,
  HIPBLASLT_EPILOGUE_GELU_AUX = 160,
  HIPBLASLT_EPILOGUE_GELU_AUX_BIAS = 164,
  HIPBLASLT_EPILOGUE_DGELU = 192,
  HIPBLASLT_EPILOGUE_DGELU_BGRAD = 208,
  HIPBLASLT_EPILOGUE_BGRADA = 256,
  HIPBLASLT_EPILOGUE_BGRADB = 512
} hipblasLtEpilogue_t;
typedef enum {
  HIPBLASLT_MATRIX_LAYOUT_BATCH_COUNT = 0,
  HIPBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET = 1,
  HIPBLASLT_MATRIX_LAYOUT_TYPE = 2,
  HIPBLASLT_MATRIX_LAYOUT_ORDER = 3,
  HIPBLASLT_MATRIX_LAYOUT_ROWS = 4,
  HIPBLASLT_MATRIX_LAYOUT_COLS = 5,
  HIPBLASLT_MATRIX_LAYOUT_LD = 6
} hipblasLtMatrixLayoutAttribute_t;
typedef enum {
  HIPBLASLT_POINTER_MODE_HOST = 0,
  HIPBLASLT_POINTER_MODE_DEVICE = 1,
  HIPBLASLT_POINTER_MODE_ALPHA_DEVICE_VECTOR_BETA_HOST = 4
} hipblasLtPointerMode_t;
typedef enum {
  HIPBLASLT_MATMUL_DESC_TRANSA = 0,
  HIPBLASLT_MATMUL_DESC_TRANSB = 1,
  HIPBLASLT_MATMUL_DESC_EPILOGUE = 2,
  HIPBLASLT_MATMUL_DESC_BIAS_POINTER = 3,
  HIPBLASLT_MATMUL_DESC_BIAS_DATA_TYPE = 4,
  HIPBLASLT_MATMUL_DESC_A_SCALE_POINTER = 5,
  HIPBLASLT_MATMUL_DESC_B_SCALE_POINTER = 6,
  HIPBLASLT_MATMUL_DESC_C_SCALE_POINTER = 7,
  HIPBLASLT_MATMUL_DESC_D_SCALE_POINTER = 8,
  HIPBLASLT_MATMUL_DESC_EPILOGUE_AUX_SCALE_POINTER = 9,
  HIPBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER = 10,
  HIPBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD = 11,
  HIPBLASLT_MATMUL_DESC_EPILOGUE_AUX_BATCH_STRIDE = 12,
  HIPBLASLT_MATMUL_DESC_POINTER_MODE = 13,
  HIPBLASLT_MATMUL_DESC_AMAX_D_POINTER = 14
} hipblasLtMatmulDescAttributes_t;
typedef enum {
  HIPBLASLT_MATMUL_PREF_SEARCH_MODE = 0,
  HIPBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES = 1,
  HIPBLASLT_MATMUL_PREF_MAX = 2
} hipblasLtMatmulPreferenceAttributes_t;
typedef enum { HIPBLASLT_ORDER_COL = 0, HIPBLASLT_ORDER_ROW = 1 } hipblasLtOrder_t;

typedef struct _hipblasLtMatmulAlgo_t {
  uint8_t data[16] = {0};
  size_t max_workspace_bytes = 0;
} hipblasLtMatmulAlgo_t;
typedef struct _hipblasLtMatmulHeuristicResult_t {
  hipblasLtMatmulAlgo_t algo;
  size_t workspaceSize = 0;
  hipblasStatus_t state = HIPBLAS_STATUS_SUCCESS;
  float wavesCount = 1.0;
  int reserved[4];
} hipblasLtMatmulHeuristicResult_t;

typedef void *hipblasLtHandle_t;
typedef pkemu::blaslt::Desc *hipblasLtMatmulDesc_t;
typedef pkemu::blaslt::Layout *hipblasLtMatrixLayout_t;
typedef pkemu::blaslt::Pref *hipblasLtMatmulPreference_t;

inline hipblasStatus_t hipblasLtCreate(hipblasLtHandle_t *h) {
  if (!h)
    return HIPBLAS_STATUS_INVALID_VALUE;
  *h = new pkemu::blaslt::Handle();
  return HIPBLAS_STATUS_SUCCESS;
}
inline hipblasStatus_t hipblasLtDestroy(const hipblasLtHandle_t h) {
  if (!h)
    return HIPBLAS_STATUS_NOT_INITIALIZED;
  delete (pkemu::blaslt::Handle *)h;
  return HIPBLAS_STATUS_SUCCESS;
}
inline hipblasStatus_t hipblasLtMatmulDescCreate(hipblasLtMatmulDesc_t *d,
                                                 hipblasComputeType_t c,
                                                 hipDataType scale) {
  if (!d)
    return HIPBLAS_STATUS_INVALID_VALUE;
  *d = new pkemu::blaslt::Desc();
  (*d)->compute = c;
  (*d)->scale = scale;
  (*d)->transa = (*d)->transb = HIPBLAS_OP_N;
  return HIPBLAS_STATUS_SUCCESS;
}
inline hipblasStatus_t hipblasLtMatmulDescDestroy(const hipblasLtMatmulDesc_t d) {
  delete d;
  return HIPBLAS_STATUS_SUCCESS;
}
inline hipblasStatus_t
hipblasLtMatmulDescSetAttribute(hipblasLtMatmulDesc_t d,
                                hipblasLtMatmulDescAttributes_t a,
                                const void *buf, size_t n) {
  using pkemu::blaslt::set;
  if (!d)
    return HIPBLAS_STATUS_NOT_INITIALIZED;
  bool ok = false;
  switch (a) {
  case HIPBLASLT_MATMUL_DESC_TRANSA:
    ok = set(d->transa, buf, n);
    break;
  case HIPBLASLT_MATMUL_DESC_TRANSB:
    ok = set(d->transb, buf, n);
    break;
  case HIPBLASLT_MATMUL_DESC_EPILOGUE:
    ok = set(d->epilogue, buf, n);
    break;
  case HIPBLASLT_MATMUL_DESC_BIAS_POINTER:
    ok = set(d->bias, buf, n);
    break;
  case HIPBLASLT_MATMUL_DESC_BIAS_DATA_TYPE:
    ok = set(d->bias_type, buf, n);
    break;
  case HIPBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER:
    ok = set(d->aux, buf, n);
    break;
  case HIPBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD:
    ok = set(d->aux_ld, buf, n);
    break;
  default:
    return HIPBLAS_STATUS_NOT_SUPPORTED;
  }
  return ok ? HIPBLAS_STATUS_SUCCESS : HIPBLAS_STATUS_INVALID_VALUE;
}
inline hipblasStatus_t hipblasLtMatrixLayoutCreate(hipblasLtMatrixLayout_t *l,
                                                   hipDataType type,
                                                   uint64_t rows, uint64_t cols,
                                                   int64_t ld) {
  if (!l)
    return HIPBLAS_STATUS_INVALID_VALUE;
  *l = new pkemu::blaslt::Layout();
  (*l)->type = type;
  (*l)->rows = rows;
  (*l)->cols = cols;
  (*l)->ld = ld;
  return HIPBLAS_STATUS_SUCCESS;
}
inline hipblasStatus_t
hipblasLtMatrixLayoutDestroy(const hipblasLtMatrixLayout_t l) {
  delete l;
  return HIPBLAS_STATUS_SUCCESS;
}
inline hipblasStatus_t
hipblasLtMatrixLayoutSetAttribute(hipblasLtMatrixLayout_t l,
                                  hipblasLtMatrixLayoutAttribute_t a,
                                  const void *buf, size_t n) {
  using pkemu::blaslt::set;
  if (!l)
    return HIPBLAS_STATUS_NOT_INITIALIZED;
  bool ok = false;
  switch (a) {
  case HIPBLASLT_MATRIX_LAYOUT_ORDER:
    ok = set(l->order, buf, n);
    break;
  case HIPBLASLT_MATRIX_LAYOUT_BATCH_COUNT:
    ok = set(l->batch, buf, n);
    break;
  case HIPBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET:
    ok = set(l->stride, buf, n);
    break;
  default:
    return HIPBLAS_STATUS_NOT_SUPPORTED;
  }
  return ok ? HIPBLAS_STATUS_SUCCESS : HIPBLAS_STATUS_INVALID_VALUE;
}
inline hipblasStatus_t
hipblasLtMatmulPreferenceCreate(hipblasLtMatmulPreference_t *p) {
  if (!p)
    return HIPBLAS_STATUS_INVALID_VALUE;
  *p = new pkemu::blaslt::Pref();
  return HIPBLAS_STATUS_SUCCESS;
}
inline hipblasStatus_t
hipblasLtMatmulPreferenceDestroy(const hipblasLtMatmulPreference_t p) {
  delete p;
  return HIPBLAS_STATUS_SUCCESS;
}
inline hipblasStatus_t
hipblasLtMatmulPreferenceSetAttribute(hipblasLtMatmulPreference_t p,
                                      hipblasLtMatmulPreferenceAttributes_t a,
                                      const void *buf, size_t n) {
  if (!p)
    return HIPBLAS_STATUS_NOT_INITIALIZED;
  if (a == HIPBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES) {
    std::uint64_t v = 0;
    if (!pkemu::blaslt::set(v, buf, n))
      return HIPBLAS_STATUS_INVALID_VALUE;
    p->max_workspace = (std::size_t)v;
  }
  return HIPBLAS_STATUS_SUCCESS;
}
inline hipblasStatus_t hipblasLtMatmulAlgoGetHeuristic(
    hipblasLtHandle_t h, hipblasLtMatmulDesc_t, hipblasLtMatrixLayout_t,
    hipblasLtMatrixLayout_t, hipblasLtMatrixLayout_t, hipblasLtMatrixLayout_t,
    hipblasLtMatmulPreference_t, int requested,
    hipblasLtMatmulHeuristicResult_t results[], int *returned) {
  if (!h)
    return HIPBLAS_STATUS_NOT_INITIALIZED;
  if (requested < 1 || !results || !returned)
    return HIPBLAS_STATUS_INVALID_VALUE;
  results[0] = hipblasLtMatmulHeuristicResult_t();
  *returned = 1;
  return HIPBLAS_STATUS_SUCCESS;
}
inline hipblasStatus_t
hipblasLtMatmul(hipblasLtHandle_t h, hipblasLtMatmulDesc_t d,
                const void *alpha, const void *A, hipblasLtMatrixLayout_t a,
                const void *B, hipblasLtMatrixLayout_t b, const void *beta,
                const void *C, hipblasLtMatrixLayout_t c, void *D,
                hipblasLtMatrixLayout_t dd, const hipblasLtMatmulAlgo_t *,
                void *, size_t, hipStream_t) {
  using namespace pkemu;
  if (!h)
    return HIPBLAS_STATUS_NOT_INITIALIZED;
  if (!d || !a || !b || !c || !dd)
    return HIPBLAS_STATUS_INVALID_VALUE;
  switch ((hipblasComputeType_t)d->compute) {
  case HIPBLAS_COMPUTE_32F:
  case HIPBLAS_COMPUTE_32F_FAST_16F:
  case HIPBLAS_COMPUTE_32F_FAST_16BF:
  case HIPBLAS_COMPUTE_32F_FAST_TF32:
  case HIPBLAS_COMPUTE_64F:
  case HIPBLAS_COMPUTE_16F:
    break;
  default:
    return HIPBLAS_STATUS_NOT_SUPPORTED;
  }
  return hipblas::status(blaslt::matmul(
      *d, hipblas::op((hipblasOperation_t)d->transa),
      hipblas::op((hipblasOperation_t)d->transb), alpha, A, *a, B, *b, beta, C,
      *c, D, *dd));
}
#endif
