//===- cusparse.h - cuSPARSE for the emulator -------------------*- C++ -*-===//
// Rules: none (emulator runtime)
//
// The cuSPARSE calls of SpMV/SpMM programs (handles, streams, pointer mode,
// the legacy matrix descriptor, CSR and COO matrices, dense vectors and
// matrices, SpMV, SpMM and their buffer sizes, the error strings), with the
// toolkit's types and enumerator values, computed by pkemu/sparse.h on the
// host.  Other cuSPARSE calls are not declared: a program that uses one does
// not build on the emulator (the build log names it).
//
//===----------------------------------------------------------------------===//
#ifndef PKEMU_CUSPARSE_H
#define PKEMU_CUSPARSE_H
#include "cuda_runtime.h"
#include "library_types.h"
#include "pkemu/sparse.h"
#include <cstdint>

typedef enum {
  CUSPARSE_STATUS_SUCCESS = 0,
  CUSPARSE_STATUS_NOT_INITIALIZED = 1,
  CUSPARSE_STATUS_ALLOC_FAILED = 2,
  CUSPARSE_STATUS_INVALID_VALUE = 3,
  CUSPARSE_STATUS_ARCH_MISMATCH = 4,
  CUSPARSE_STATUS_MAPPING_ERROR = 5,
  CUSPARSE_STATUS_EXECUTION_FAILED = 6,
  CUSPARSE_STATUS_INTERNAL_ERROR = 7,
  CUSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED = 8,
  CUSPARSE_STATUS_ZERO_PIVOT = 9,
  CUSPARSE_STATUS_NOT_SUPPORTED = 10,
  CUSPARSE_STATUS_INSUFFICIENT_RESOURCES = 11
} cusparseStatus_t;
typedef enum {
  CUSPARSE_POINTER_MODE_HOST = 0,
  CUSPARSE_POINTER_MODE_DEVICE = 1
} cusparsePointerMode_t;
typedef enum {
  CUSPARSE_MATRIX_TYPE_GENERAL = 0,
  CUSPARSE_MATRIX_TYPE_SYMMETRIC = 1,
  CUSPARSE_MATRIX_TYPE_HERMITIAN = 2,
  CUSPARSE_MATRIX_TYPE_TRIANGULAR = 3
} cusparseMatrixType_t;
typedef enum {
  CUSPARSE_INDEX_BASE_ZERO = 0,
  CUSPARSE_INDEX_BASE_ONE = 1
} cusparseIndexBase_t;
typedef enum {
  CUSPARSE_OPERATION_NON_TRANSPOSE = 0,
  CUSPARSE_OPERATION_TRANSPOSE = 1,
  CUSPARSE_OPERATION_CONJUGATE_TRANSPOSE = 2
} cusparseOperation_t;
typedef enum { CUSPARSE_ORDER_COL = 1, CUSPARSE_ORDER_ROW = 2 } cusparseOrder_t;
typedef enum {
  CUSPARSE_INDEX_16U = 1,
  CUSPARSE_INDEX_32I = 2,
  CUSPARSE_INDEX_64I = 3
} cusparseIndexType_t;
typedef enum {
  CUSPARSE_SPMV_ALG_DEFAULT = 0,
  CUSPARSE_SPMV_CSR_ALG1 = 2,
  CUSPARSE_SPMV_CSR_ALG2 = 3,
  CUSPARSE_SPMV_COO_ALG1 = 1,
  CUSPARSE_SPMV_COO_ALG2 = 4
} cusparseSpMVAlg_t;
typedef enum {
  CUSPARSE_SPMM_ALG_DEFAULT = 0,
  CUSPARSE_SPMM_COO_ALG1 = 1,
  CUSPARSE_SPMM_COO_ALG2 = 2,
  CUSPARSE_SPMM_COO_ALG3 = 3,
  CUSPARSE_SPMM_COO_ALG4 = 5,
  CUSPARSE_SPMM_CSR_ALG1 = 4,
  CUSPARSE_SPMM_CSR_ALG2 = 6,
  CUSPARSE_SPMM_CSR_ALG3 = 12
} cusparseSpMMAlg_t;

struct cusparseContext;
typedef struct cusparseContext *cusparseHandle_t;
struct cusparseMatDescr;
typedef struct cusparseMatDescr *cusparseMatDescr_t;
struct cusparseSpMatDescr;
typedef struct cusparseSpMatDescr *cusparseSpMatDescr_t;
typedef struct cusparseSpMatDescr const *cusparseConstSpMatDescr_t;
struct cusparseDnVecDescr;
typedef struct cusparseDnVecDescr *cusparseDnVecDescr_t;
typedef struct cusparseDnVecDescr const *cusparseConstDnVecDescr_t;
struct cusparseDnMatDescr;
typedef struct cusparseDnMatDescr *cusparseDnMatDescr_t;
typedef struct cusparseDnMatDescr const *cusparseConstDnMatDescr_t;

namespace pkemu {
namespace cusparse {
inline sparse::Handle *h(cusparseHandle_t x) { return (sparse::Handle *)x; }
inline const sparse::SpMat *sp(cusparseConstSpMatDescr_t x) {
  return (const sparse::SpMat *)x;
}
inline const sparse::DnVec *vec(cusparseConstDnVecDescr_t x) {
  return (const sparse::DnVec *)x;
}
inline const sparse::DnMat *mat(cusparseConstDnMatDescr_t x) {
  return (const sparse::DnMat *)x;
}
inline cusparseStatus_t st(int s) { return (cusparseStatus_t)s; }
} // namespace cusparse
} // namespace pkemu

inline cusparseStatus_t cusparseCreate(cusparseHandle_t *handle) {
  return pkemu::cusparse::st(
      pkemu::sparse::create_handle((pkemu::sparse::Handle **)handle));
}
inline cusparseStatus_t cusparseDestroy(cusparseHandle_t handle) {
  return pkemu::cusparse::st(
      pkemu::sparse::destroy_handle(pkemu::cusparse::h(handle)));
}
inline cusparseStatus_t cusparseSetStream(cusparseHandle_t handle,
                                          cudaStream_t s) {
  return pkemu::cusparse::st(
      pkemu::sparse::set_stream(pkemu::cusparse::h(handle), (void *)s));
}
inline cusparseStatus_t cusparseGetStream(cusparseHandle_t handle,
                                          cudaStream_t *s) {
  return pkemu::cusparse::st(
      pkemu::sparse::get_stream(pkemu::cusparse::h(handle), (void **)s));
}
inline cusparseStatus_t cusparseSetPointerMode(cusparseHandle_t handle,
                                               cusparsePointerMode_t m) {
  return pkemu::cusparse::st(
      pkemu::sparse::set_pointer_mode(pkemu::cusparse::h(handle), (int)m));
}
inline cusparseStatus_t cusparseGetPointerMode(cusparseHandle_t handle,
                                               cusparsePointerMode_t *m) {
  return pkemu::cusparse::st(
      pkemu::sparse::get_pointer_mode(pkemu::cusparse::h(handle), (int *)m));
}
inline const char *cusparseGetErrorName(cusparseStatus_t s) {
  switch (s) {
  case CUSPARSE_STATUS_SUCCESS:
    return "CUSPARSE_STATUS_SUCCESS";
  case CUSPARSE_STATUS_NOT_INITIALIZED:
    return "CUSPARSE_STATUS_NOT_INITIALIZED";
  case CUSPARSE_STATUS_ALLOC_FAILED:
    return "CUSPARSE_STATUS_ALLOC_FAILED";
  case CUSPARSE_STATUS_INVALID_VALUE:
    return "CUSPARSE_STATUS_INVALID_VALUE";
  case CUSPARSE_STATUS_ARCH_MISMATCH:
    return "CUSPARSE_STATUS_ARCH_MISMATCH";
  case CUSPARSE_STATUS_MAPPING_ERROR:
    return "CUSPARSE_STATUS_MAPPING_ERROR";
  case CUSPARSE_STATUS_EXECUTION_FAILED:
    return "CUSPARSE_STATUS_EXECUTION_FAILED";
  case CUSPARSE_STATUS_INTERNAL_ERROR:
    return "CUSPARSE_STATUS_INTERNAL_ERROR";
  case CUSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED:
    return "CUSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED";
  case CUSPARSE_STATUS_ZERO_PIVOT:
    return "CUSPARSE_STATUS_ZERO_PIVOT";
  case CUSPARSE_STATUS_NOT_SUPPORTED:
    return "CUSPARSE_STATUS_NOT_SUPPORTED";
  case CUSPARSE_STATUS_INSUFFICIENT_RESOURCES:
    return "CUSPARSE_STATUS_INSUFFICIENT_RESOURCES";
  }
  return "CUSPARSE_STATUS_UNKNOWN";
}
inline const char *cusparseGetErrorString(cusparseStatus_t s) {
  switch (s) {
  case CUSPARSE_STATUS_SUCCESS:
    return "success";
  case CUSPARSE_STATUS_NOT_INITIALIZED:
    return "initialization error";
  case CUSPARSE_STATUS_INVALID_VALUE:
    return "invalid value";
  case CUSPARSE_STATUS_NOT_SUPPORTED:
    return "operation not supported";
  default:
    return "cuSPARSE error";
  }
}

// The legacy matrix descriptor.
inline cusparseStatus_t cusparseCreateMatDescr(cusparseMatDescr_t *d) {
  return pkemu::cusparse::st(
      pkemu::sparse::create_mat_descr((pkemu::sparse::MatDescr **)d));
}
inline cusparseStatus_t cusparseDestroyMatDescr(cusparseMatDescr_t d) {
  delete (pkemu::sparse::MatDescr *)d;
  return CUSPARSE_STATUS_SUCCESS;
}
inline cusparseStatus_t cusparseSetMatType(cusparseMatDescr_t d,
                                           cusparseMatrixType_t t) {
  if (!d)
    return CUSPARSE_STATUS_INVALID_VALUE;
  ((pkemu::sparse::MatDescr *)d)->type = (int)t;
  return CUSPARSE_STATUS_SUCCESS;
}
inline cusparseStatus_t cusparseSetMatIndexBase(cusparseMatDescr_t d,
                                                cusparseIndexBase_t b) {
  if (!d)
    return CUSPARSE_STATUS_INVALID_VALUE;
  ((pkemu::sparse::MatDescr *)d)->base = (int)b;
  return CUSPARSE_STATUS_SUCCESS;
}
inline cusparseMatrixType_t cusparseGetMatType(const cusparseMatDescr_t d) {
  return (cusparseMatrixType_t)((const pkemu::sparse::MatDescr *)d)->type;
}
inline cusparseIndexBase_t cusparseGetMatIndexBase(const cusparseMatDescr_t d) {
  return (cusparseIndexBase_t)((const pkemu::sparse::MatDescr *)d)->base;
}

// The generic API.
inline cusparseStatus_t
cusparseCreateCsr(cusparseSpMatDescr_t *m, int64_t rows, int64_t cols,
                  int64_t nnz, void *offsets, void *colind, void *values,
                  cusparseIndexType_t offset_type,
                  cusparseIndexType_t index_type, cusparseIndexBase_t base,
                  cudaDataType value_type) {
  return pkemu::cusparse::st(pkemu::sparse::create_csr(
      (pkemu::sparse::SpMat **)m, rows, cols, nnz, offsets, colind, values,
      (int)offset_type, (int)index_type, (int)base, (int)value_type, false));
}
inline cusparseStatus_t
cusparseCreateCoo(cusparseSpMatDescr_t *m, int64_t rows, int64_t cols,
                  int64_t nnz, void *rowind, void *colind, void *values,
                  cusparseIndexType_t index_type, cusparseIndexBase_t base,
                  cudaDataType value_type) {
  return pkemu::cusparse::st(pkemu::sparse::create_csr(
      (pkemu::sparse::SpMat **)m, rows, cols, nnz, rowind, colind, values,
      (int)index_type, (int)index_type, (int)base, (int)value_type, true));
}
inline cusparseStatus_t cusparseDestroySpMat(cusparseConstSpMatDescr_t m) {
  delete pkemu::cusparse::sp(m);
  return CUSPARSE_STATUS_SUCCESS;
}
inline cusparseStatus_t cusparseCreateDnVec(cusparseDnVecDescr_t *v,
                                            int64_t size, void *values,
                                            cudaDataType value_type) {
  return pkemu::cusparse::st(pkemu::sparse::create_dnvec(
      (pkemu::sparse::DnVec **)v, size, values, (int)value_type));
}
inline cusparseStatus_t cusparseDestroyDnVec(cusparseConstDnVecDescr_t v) {
  delete pkemu::cusparse::vec(v);
  return CUSPARSE_STATUS_SUCCESS;
}
inline cusparseStatus_t cusparseCreateDnMat(cusparseDnMatDescr_t *m,
                                            int64_t rows, int64_t cols,
                                            int64_t ld, void *values,
                                            cudaDataType value_type,
                                            cusparseOrder_t order) {
  return pkemu::cusparse::st(pkemu::sparse::create_dnmat(
      (pkemu::sparse::DnMat **)m, rows, cols, ld, values, (int)value_type,
      order == CUSPARSE_ORDER_COL || order == CUSPARSE_ORDER_ROW,
      order == CUSPARSE_ORDER_ROW));
}
inline cusparseStatus_t cusparseDestroyDnMat(cusparseConstDnMatDescr_t m) {
  delete pkemu::cusparse::mat(m);
  return CUSPARSE_STATUS_SUCCESS;
}
inline cusparseStatus_t cusparseSpMV_bufferSize(
    cusparseHandle_t handle, cusparseOperation_t, const void *,
    cusparseConstSpMatDescr_t, cusparseConstDnVecDescr_t, const void *,
    cusparseDnVecDescr_t, cudaDataType, cusparseSpMVAlg_t, size_t *size) {
  return pkemu::cusparse::st(
      pkemu::sparse::buffer_size(pkemu::cusparse::h(handle), size));
}
inline cusparseStatus_t
cusparseSpMV(cusparseHandle_t handle, cusparseOperation_t op, const void *alpha,
             cusparseConstSpMatDescr_t A, cusparseConstDnVecDescr_t x,
             const void *beta, cusparseDnVecDescr_t y, cudaDataType compute,
             cusparseSpMVAlg_t, void *) {
  return pkemu::cusparse::st(pkemu::sparse::spmv(
      pkemu::cusparse::h(handle), (int)op, alpha, pkemu::cusparse::sp(A),
      pkemu::cusparse::vec(x), beta, (pkemu::sparse::DnVec *)y, (int)compute));
}
inline cusparseStatus_t
cusparseSpMM_bufferSize(cusparseHandle_t handle, cusparseOperation_t,
                        cusparseOperation_t, const void *,
                        cusparseConstSpMatDescr_t, cusparseConstDnMatDescr_t,
                        const void *, cusparseDnMatDescr_t, cudaDataType,
                        cusparseSpMMAlg_t, size_t *size) {
  return pkemu::cusparse::st(
      pkemu::sparse::buffer_size(pkemu::cusparse::h(handle), size));
}
inline cusparseStatus_t
cusparseSpMM(cusparseHandle_t handle, cusparseOperation_t opa,
             cusparseOperation_t opb, const void *alpha,
             cusparseConstSpMatDescr_t A, cusparseConstDnMatDescr_t B,
             const void *beta, cusparseDnMatDescr_t C, cudaDataType compute,
             cusparseSpMMAlg_t, void *) {
  return pkemu::cusparse::st(
      pkemu::sparse::spmm(pkemu::cusparse::h(handle), (int)opa, (int)opb, alpha,
                          pkemu::cusparse::sp(A), pkemu::cusparse::mat(B), beta,
                          (pkemu::sparse::DnMat *)C, (int)compute));
}
// cusparse.h's calling-convention macro, which helper_cuda.h tests for its
// cusparseStatus_t error strings.
#ifndef CUSPARSEAPI
#define CUSPARSEAPI
#endif
#endif
