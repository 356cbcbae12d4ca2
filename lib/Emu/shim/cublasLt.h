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
// computes D = alpha op(A) op(B) + beta C with the CPU BLAS of pkemu/blas.h,
// then the epilogue: BIAS adds bias[row] to every column, RELU and GELU
// (the tanh approximation) apply element-wise, in that order.  hipBLAS has no
// such API (the HIP port flags it, PK1010), so only CUDA sources use this.
//
//===----------------------------------------------------------------------===//
#ifndef PKEMU_CUBLASLT_H
#define PKEMU_CUBLASLT_H
#include "cublas_v2.h"
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
  CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE = 26
} cublasLtMatmulDescAttributes_t;
typedef enum {
  CUBLASLT_EPILOGUE_DEFAULT = 1,
  CUBLASLT_EPILOGUE_RELU = 2,
  CUBLASLT_EPILOGUE_BIAS = 4,
  CUBLASLT_EPILOGUE_RELU_BIAS = 6,
  CUBLASLT_EPILOGUE_GELU = 32,
  CUBLASLT_EPILOGUE_GELU_BIAS = 36
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
struct Handle {
  int unused;
};
struct Desc {
  int compute = CUBLAS_COMPUTE_32F, scale = CUDA_R_32F;
  int transa = CUBLAS_OP_N, transb = CUBLAS_OP_N;
  int epilogue = CUBLASLT_EPILOGUE_DEFAULT;
  const void *bias = nullptr;
  int bias_type = -1;
};
struct Layout {
  int type = CUDA_R_32F, order = CUBLASLT_ORDER_COL;
  std::uint64_t rows = 0, cols = 0;
  std::int64_t ld = 0, stride = 0;
  int batch = 1;
};
struct Pref {
  std::size_t max_workspace = 0;
};

template <class T> inline bool set(T &field, const void *buf, std::size_t n) {
  if (!buf || n != sizeof(T))
    return false;
  std::memcpy(&field, buf, sizeof(T));
  return true;
}
inline float gelu(float x) {
  return 0.5f * x *
         (1.0f + std::tanh(0.7978845608f * (x + 0.044715f * x * x * x)));
}
__attribute__((no_sanitize("thread"))) inline void
copy_c(const void *C, void *D, int t, std::int64_t m, std::int64_t n,
       std::int64_t ldc, std::int64_t ldd) {
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < m; ++i)
      blas::store(D, t, (std::size_t)(j * ldd + i),
                  blas::load(C, t, (std::size_t)(j * ldc + i)));
}
__attribute__((no_sanitize("thread"))) inline void
epilogue(const Desc &d, void *D, int t, std::int64_t m, std::int64_t n,
         std::int64_t ld) {
  bool bias = d.epilogue & CUBLASLT_EPILOGUE_BIAS,
       relu = d.epilogue & CUBLASLT_EPILOGUE_RELU,
       gelu_ = d.epilogue & CUBLASLT_EPILOGUE_GELU;
  int bt = d.bias_type >= 0 ? d.bias_type : t;
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < m; ++i) {
      std::size_t at = (std::size_t)(j * ld + i);
      float v = blas::load(D, t, at);
      if (bias)
        v += blas::load(d.bias, bt, (std::size_t)i);
      if (relu)
        v = v > 0 ? v : 0;
      if (gelu_)
        v = gelu(v);
      blas::store(D, t, at, v);
    }
}
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
  if (!d || !a || !b || !c || !dd || !alpha || !beta)
    return CUBLAS_STATUS_INVALID_VALUE;
  if (a->order || b->order || c->order || dd->order)
    return CUBLAS_STATUS_NOT_SUPPORTED;
  if ((d->epilogue & CUBLASLT_EPILOGUE_BIAS) && !d->bias)
    return CUBLAS_STATUS_INVALID_VALUE;
  int st = cublas::scalar_type((cublasComputeType_t)d->compute);
  if (st < 0)
    return CUBLAS_STATUS_NOT_SUPPORTED;
  std::int64_t m = (std::int64_t)dd->rows, n = (std::int64_t)dd->cols;
  std::int64_t k =
      d->transa == CUBLAS_OP_N ? (std::int64_t)a->cols : (std::int64_t)a->rows;
  if ((std::int64_t)c->rows != m || (std::int64_t)c->cols != n ||
      c->type != dd->type)
    return CUBLAS_STATUS_INVALID_VALUE;
  double al = blas::read_scalar(alpha, d->scale),
         be = blas::read_scalar(beta, d->scale);
  int batch = dd->batch;
  std::size_t es = blas::elem_size(dd->type);
  for (int i = 0; i < batch; ++i) {
    const char *Ci = (const char *)C + (std::size_t)(c->stride * i) * es;
    char *Di = (char *)D + (std::size_t)(dd->stride * i) * es;
    if (Ci != Di && be != 0)
      cublaslt::copy_c(Ci, Di, dd->type, m, n, c->ld, dd->ld);
    int s = blas::gemm(
        cublas::op((cublasOperation_t)d->transa),
        cublas::op((cublasOperation_t)d->transb), (int)m, (int)n, (int)k, al,
        (const char *)A +
            (std::size_t)(a->stride * i) * blas::elem_size(a->type),
        a->type, (int)a->ld, 0,
        (const char *)B +
            (std::size_t)(b->stride * i) * blas::elem_size(b->type),
        b->type, (int)b->ld, 0, be, Di, dd->type, (int)dd->ld, 0, 1);
    if (s)
      return cublas::status(s);
    if (d->epilogue != CUBLASLT_EPILOGUE_DEFAULT)
      cublaslt::epilogue(*d, Di, dd->type, m, n, dd->ld);
  }
  return CUBLAS_STATUS_SUCCESS;
}
#endif
