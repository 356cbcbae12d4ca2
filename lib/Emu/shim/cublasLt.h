//===- cublasLt.h - the cuBLASLt matmul for the emulator ---------*- C++
//-*-===//
// Rules: none (emulator runtime)
//
// cuBLASLt's matmul path as training code calls it: a handle, a matmul
// descriptor (compute and scale types, TRANSA, TRANSB, EPILOGUE,
// BIAS_POINTER, BIAS_DATA_TYPE), matrix layouts (type, rows, columns,
// leading dimension; BATCH_COUNT and STRIDED_BATCH_OFFSET; column-major
// only), a preference (its workspace limit is accepted) and the heuristic
// (one algorithm, no workspace), with the toolkit's values.  cublasLtMatmul
// is pkemu/blaslt.h's matmul, which hipblaslt/hipblaslt.h shares: D = alpha
// op(A) op(B) + beta C with the CPU BLAS, then the epilogue (BIAS, the
// pre-activation to EPILOGUE_AUX_POINTER, RELU or GELU).
//
//===----------------------------------------------------------------------===//
#ifndef PKEMU_CUBLASLT_H
#define PKEMU_CUBLASLT_H
#include "cublas_v2.h"
#include "pkemu/blaslt.h"
#include <cmath>
#include <cstdint>

typedef enum {
  CUBLASLT_MATRIX_LAYOUT_TYPE = 0,
  CUBLASLT_MATRIX_LAYOUT_ORDER = 1,
  CUBLASLT_MATRIX_LAYOUT_ROWS = 2,
  CUBLASLT_MATRIX_LAYOUT_COLS = 3,
  CUBLASLT_MATRIX_LAYOUT_LD = 4,
  CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT = 5,
  CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET = 6
} cublasLtMatrixLayoutAttribute_t;
typedef enum {
  CUBLASLT_MATMUL_DESC_COMPUTE_TYPE = 0,
  CUBLASLT_MATMUL_DESC_SCALE_TYPE = 1,
  CUBLASLT_MATMUL_DESC_POINTER_MODE = 2,
  CUBLASLT_MATMUL_DESC_TRANSA = 3,
  CUBLASLT_MATMUL_DESC_TRANSB = 4,
  CUBLASLT_MATMUL_DESC_TRANSC = 5,
  CUBLASLT_MATMUL_DESC_FILL_MODE = 6,
  CUBLASLT_MATMUL_DESC_EPILOGUE = 7,
  CUBLASLT_MATMUL_DESC_BIAS_POINTER = 8,
  CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER = 11,
  CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD = 12,
  CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE = 26
} cublasLtMatmulDescAttributes_t;
typedef enum {
  CUBLASLT_EPILOGUE_DEFAULT = 1,
  CUBLASLT_EPILOGUE_RELU = 2,
  CUBLASLT_EPILOGUE_BIAS = 4,
  CUBLASLT_EPILOGUE_RELU_BIAS = 6,
  CUBLASLT_EPILOGUE_DRELU = 136,
  CUBLASLT_EPILOGUE_GELU = 32,
  CUBLASLT_EPILOGUE_GELU_AUX = 160,
  CUBLASLT_EPILOGUE_GELU_BIAS = 36,
  CUBLASLT_EPILOGUE_GELU_AUX_BIAS = 164,
  CUBLASLT_EPILOGUE_DGELU = 192,
  CUBLASLT_EPILOGUE_BGRADA = 256,
  CUBLASLT_EPILOGUE_BGRADB = 512
} cublasLtEpilogue_t;
typedef enum {
  CUBLASLT_MATMUL_PREF_SEARCH_MODE = 0,
  CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES = 1
} cublasLtMatmulPreferenceAttributes_t;
typedef enum { CUBLASLT_ORDER_COL = 0, CUBLASLT_ORDER_ROW = 1 } cublasLtOrder_t;

typedef struct {
  uint64_t data[8];
} cublasLtMatmulAlgo_t;
typedef struct {
  cublasLtMatmulAlgo_t algo;
  size_t workspaceSize;
  cublasStatus_t state;
  float wavesCount;
  int reserved[4];
} cublasLtMatmulHeuristicResult_t;

namespace pkemu {
namespace cublaslt {
using Handle = blaslt::Handle;
using Desc = blaslt::Desc;
using Layout = blaslt::Layout;
using Pref = blaslt::Pref;
using blaslt::set;
} // namespace cublaslt
} // namespace pkemu

typedef pkemu::cublaslt::Handle *cublasLtHandle_t;
typedef pkemu::cublaslt::Desc *cublasLtMatmulDesc_t;
typedef pkemu::cublaslt::Layout *cublasLtMatrixLayout_t;
typedef pkemu::cublaslt::Pref *cublasLtMatmulPreference_t;

inline cublasStatus_t cublasLtCreate(cublasLtHandle_t *h) {
  if (!h)
    return CUBLAS_STATUS_INVALID_VALUE;
  *h = new pkemu::cublaslt::Handle();
  return CUBLAS_STATUS_SUCCESS;
}
inline cublasStatus_t cublasLtDestroy(cublasLtHandle_t h) {
  if (!h)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  delete h;
  return CUBLAS_STATUS_SUCCESS;
}
inline cublasStatus_t cublasLtMatmulDescCreate(cublasLtMatmulDesc_t *d,
                                               cublasComputeType_t c,
                                               cudaDataType_t scale) {
  if (!d)
    return CUBLAS_STATUS_INVALID_VALUE;
  *d = new pkemu::cublaslt::Desc();
  (*d)->compute = c;
  (*d)->scale = scale;
  return CUBLAS_STATUS_SUCCESS;
}
inline cublasStatus_t cublasLtMatmulDescDestroy(cublasLtMatmulDesc_t d) {
  delete d;
  return CUBLAS_STATUS_SUCCESS;
}
inline cublasStatus_t
cublasLtMatmulDescSetAttribute(cublasLtMatmulDesc_t d,
                               cublasLtMatmulDescAttributes_t a,
                               const void *buf, size_t n) {
  if (!d)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  bool ok = false;
  switch (a) {
  case CUBLASLT_MATMUL_DESC_COMPUTE_TYPE:
    ok = pkemu::cublaslt::set(d->compute, buf, n);
    break;
  case CUBLASLT_MATMUL_DESC_SCALE_TYPE:
    ok = pkemu::cublaslt::set(d->scale, buf, n);
    break;
  case CUBLASLT_MATMUL_DESC_TRANSA:
    ok = pkemu::cublaslt::set(d->transa, buf, n);
    break;
  case CUBLASLT_MATMUL_DESC_TRANSB:
    ok = pkemu::cublaslt::set(d->transb, buf, n);
    break;
  case CUBLASLT_MATMUL_DESC_EPILOGUE:
    ok = pkemu::cublaslt::set(d->epilogue, buf, n);
    break;
  case CUBLASLT_MATMUL_DESC_BIAS_POINTER:
    ok = pkemu::cublaslt::set(d->bias, buf, n);
    break;
  case CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE:
    ok = pkemu::cublaslt::set(d->bias_type, buf, n);
    break;
  case CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER:
    ok = pkemu::cublaslt::set(d->aux, buf, n);
    break;
  case CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD:
    ok = pkemu::cublaslt::set(d->aux_ld, buf, n);
    break;
  default:
    return CUBLAS_STATUS_NOT_SUPPORTED;
  }
  return ok ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_INVALID_VALUE;
}
inline cublasStatus_t cublasLtMatrixLayoutCreate(cublasLtMatrixLayout_t *l,
                                                 cudaDataType type,
                                                 uint64_t rows, uint64_t cols,
                                                 int64_t ld) {
  if (!l)
    return CUBLAS_STATUS_INVALID_VALUE;
  *l = new pkemu::cublaslt::Layout();
  (*l)->type = type;
  (*l)->rows = rows;
  (*l)->cols = cols;
  (*l)->ld = ld;
  return CUBLAS_STATUS_SUCCESS;
}
inline cublasStatus_t cublasLtMatrixLayoutDestroy(cublasLtMatrixLayout_t l) {
  delete l;
  return CUBLAS_STATUS_SUCCESS;
}
inline cublasStatus_t
cublasLtMatrixLayoutSetAttribute(cublasLtMatrixLayout_t l,
                                 cublasLtMatrixLayoutAttribute_t a,
                                 const void *buf, size_t n) {
  if (!l)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  bool ok = false;
  switch (a) {
  case CUBLASLT_MATRIX_LAYOUT_ORDER:
    ok = pkemu::cublaslt::set(l->order, buf, n);
    break;
  case CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT:
    ok = pkemu::cublaslt::set(l->batch, buf, n);
    break;
  case CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET:
    ok = pkemu::cublaslt::set(l->stride, buf, n);
    break;
  default:
    return CUBLAS_STATUS_NOT_SUPPORTED;
  }
  return ok ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_INVALID_VALUE;
}
inline cublasStatus_t
cublasLtMatmulPreferenceCreate(cublasLtMatmulPreference_t *p) {
  if (!p)
    return CUBLAS_STATUS_INVALID_VALUE;
  *p = new pkemu::cublaslt::Pref();
  return CUBLAS_STATUS_SUCCESS;
}
inline cublasStatus_t
cublasLtMatmulPreferenceDestroy(cublasLtMatmulPreference_t p) {
  delete p;
  return CUBLAS_STATUS_SUCCESS;
}
inline cublasStatus_t
cublasLtMatmulPreferenceSetAttribute(cublasLtMatmulPreference_t p,
                                     cublasLtMatmulPreferenceAttributes_t a,
                                     const void *buf, size_t n) {
  if (!p)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  if (a == CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES) {
    std::uint64_t v = 0;
    if (!pkemu::cublaslt::set(v, buf, n))
      return CUBLAS_STATUS_INVALID_VALUE;
    p->max_workspace = (std::size_t)v;
  }
  return CUBLAS_STATUS_SUCCESS;
}
inline cublasStatus_t cublasLtMatmulAlgoGetHeuristic(
    cublasLtHandle_t h, cublasLtMatmulDesc_t, cublasLtMatrixLayout_t,
    cublasLtMatrixLayout_t, cublasLtMatrixLayout_t, cublasLtMatrixLayout_t,
    cublasLtMatmulPreference_t, int requested,
    cublasLtMatmulHeuristicResult_t results[], int *returned) {
  if (!h)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  if (requested < 1 || !results || !returned)
    return CUBLAS_STATUS_INVALID_VALUE;
  std::memset(&results[0], 0, sizeof(results[0]));
  results[0].state = CUBLAS_STATUS_SUCCESS;
  results[0].wavesCount = 1.0f;
  *returned = 1;
  return CUBLAS_STATUS_SUCCESS;
}
inline cublasStatus_t
cublasLtMatmul(cublasLtHandle_t h, cublasLtMatmulDesc_t d, const void *alpha,
               const void *A, cublasLtMatrixLayout_t a, const void *B,
               cublasLtMatrixLayout_t b, const void *beta, const void *C,
               cublasLtMatrixLayout_t c, void *D, cublasLtMatrixLayout_t dd,
               const cublasLtMatmulAlgo_t *, void *, size_t, cudaStream_t) {
  using namespace pkemu;
  if (!h)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!d || !a || !b || !c || !dd)
    return CUBLAS_STATUS_INVALID_VALUE;
  if (cublas::scalar_type((cublasComputeType_t)d->compute) < 0)
    return CUBLAS_STATUS_NOT_SUPPORTED;
  return cublas::status(blaslt::matmul(
      *d, cublas::op((cublasOperation_t)d->transa),
      cublas::op((cublasOperation_t)d->transb), alpha, A, *a, B, *b, beta, C,
      *c, D, *dd));
}
#endif
