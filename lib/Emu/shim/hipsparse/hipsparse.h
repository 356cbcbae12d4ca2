//===- hipsparse/hipsparse.h - hipSPARSE for the emulator -------*- C++ -*-===//
// Rules: none (emulator runtime)
//
// The hipSPARSE calls that cuSPARSE programs port to (rules/cuda2hip/
// lib-cusparse.yaml, PK1025), with hipSPARSE's types and enumerator values
// (the descriptors are void pointers, the dense orders and algorithms are
// numbered differently from cuSPARSE's), computed by pkemu/sparse.h on the
// host.  Other hipSPARSE calls are not declared.
//
//===----------------------------------------------------------------------===//
#ifndef PKEMU_HIPSPARSE_H
#define PKEMU_HIPSPARSE_H
#include "../hip/hip_runtime.h"
#include "../hip/library_types.h"
#include "../pkemu/sparse.h"
#include <cstdint>

typedef enum {
  HIPSPARSE_STATUS_SUCCESS = 0,
  HIPSPARSE_STATUS_NOT_INITIALIZED = 1,
  HIPSPARSE_STATUS_ALLOC_FAILED = 2,
  HIPSPARSE_STATUS_INVALID_VALUE = 3,
  HIPSPARSE_STATUS_ARCH_MISMATCH = 4,
  HIPSPARSE_STATUS_MAPPING_ERROR = 5,
  HIPSPARSE_STATUS_EXECUTION_FAILED = 6,
  HIPSPARSE_STATUS_INTERNAL_ERROR = 7,
  HIPSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED = 8,
  HIPSPARSE_STATUS_ZERO_PIVOT = 9,
  HIPSPARSE_STATUS_NOT_SUPPORTED = 10,
  HIPSPARSE_STATUS_INSUFFICIENT_RESOURCES = 11
} hipsparseStatus_t;
typedef enum {
  HIPSPARSE_POINTER_MODE_HOST = 0,
  HIPSPARSE_POINTER_MODE_DEVICE = 1
} hipsparsePointerMode_t;
typedef enum {
  HIPSPARSE_MATRIX_TYPE_GENERAL = 0,
  HIPSPARSE_MATRIX_TYPE_SYMMETRIC = 1,
  HIPSPARSE_MATRIX_TYPE_HERMITIAN = 2,
  HIPSPARSE_MATRIX_TYPE_TRIANGULAR = 3
} hipsparseMatrixType_t;
typedef enum {
  HIPSPARSE_INDEX_BASE_ZERO = 0,
  HIPSPARSE_INDEX_BASE_ONE = 1
} hipsparseIndexBase_t;
typedef enum {
  HIPSPARSE_OPERATION_NON_TRANSPOSE = 0,
  HIPSPARSE_OPERATION_TRANSPOSE = 1,
  HIPSPARSE_OPERATION_CONJUGATE_TRANSPOSE = 2
} hipsparseOperation_t;
typedef enum {
  HIPSPARSE_ORDER_ROW = 0,
  HIPSPARSE_ORDER_COLUMN = 1
} hipsparseOrder_t;
typedef enum {
  HIPSPARSE_INDEX_16U = 1,
  HIPSPARSE_INDEX_32I = 2,
  HIPSPARSE_INDEX_64I = 3
} hipsparseIndexType_t;
typedef enum {
  HIPSPARSE_MV_ALG_DEFAULT = 0,
  HIPSPARSE_COOMV_ALG = 1,
  HIPSPARSE_CSRMV_ALG1 = 2,
  HIPSPARSE_CSRMV_ALG2 = 3,
  HIPSPARSE_SPMV_ALG_DEFAULT = 4,
  HIPSPARSE_SPMV_COO_ALG1 = 5,
  HIPSPARSE_SPMV_COO_ALG2 = 6,
  HIPSPARSE_SPMV_CSR_ALG1 = 7,
  HIPSPARSE_SPMV_CSR_ALG2 = 8
} hipsparseSpMVAlg_t;
typedef enum {
  HIPSPARSE_MM_ALG_DEFAULT = 0,
  HIPSPARSE_COOMM_ALG1 = 1,
  HIPSPARSE_COOMM_ALG2 = 2,
  HIPSPARSE_COOMM_ALG3 = 3,
  HIPSPARSE_CSRMM_ALG1 = 4,
  HIPSPARSE_SPMM_ALG_DEFAULT = 5,
  HIPSPARSE_SPMM_COO_ALG1 = 6,
  HIPSPARSE_SPMM_COO_ALG2 = 7,
  HIPSPARSE_SPMM_COO_ALG3 = 8,
  HIPSPARSE_SPMM_COO_ALG4 = 9,
  HIPSPARSE_SPMM_CSR_ALG1 = 10,
  HIPSPARSE_SPMM_CSR_ALG2 = 11,
  HIPSPARSE_SPMM_BLOCKED_ELL_ALG1 = 12,
  HIPSPARSE_SPMM_CSR_ALG3 = 13
} hipsparseSpMMAlg_t;

typedef void *hipsparseHandle_t;
typedef void *hipsparseMatDescr_t;
typedef void *hipsparseSpMatDescr_t;
typedef void *hipsparseDnVecDescr_t;
typedef void *hipsparseDnMatDescr_t;

namespace pkemu {
namespace hipsparse {
inline sparse::Handle *h(hipsparseHandle_t x) { return (sparse::Handle *)x; }
inline hipsparseStatus_t st(int s) { return (hipsparseStatus_t)s; }
} // namespace hipsparse
} // namespace pkemu

inline hipsparseStatus_t hipsparseCreate(hipsparseHandle_t *handle) {
  return pkemu::hipsparse::st(
      pkemu::sparse::create_handle((pkemu::sparse::Handle **)handle));
}
inline hipsparseStatus_t hipsparseDestroy(hipsparseHandle_t handle) {
  return pkemu::hipsparse::st(
      pkemu::sparse::destroy_handle(pkemu::hipsparse::h(handle)));
}
inline hipsparseStatus_t hipsparseSetStream(hipsparseHandle_t handle,
                                            hipStream_t s) {
  return pkemu::hipsparse::st(
      pkemu::sparse::set_stream(pkemu::hipsparse::h(handle), (void *)s));
}
inline hipsparseStatus_t hipsparseGetStream(hipsparseHandle_t handle,
                                            hipStream_t *s) {
  return pkemu::hipsparse::st(
      pkemu::sparse::get_stream(pkemu::hipsparse::h(handle), (void **)s));
}
inline hipsparseStatus_t hipsparseSetPointerMode(hipsparseHandle_t handle,
                                                 hipsparsePointerMode_t m) {
  return pkemu::hipsparse::st(
      pkemu::sparse::set_pointer_mode(pkemu::hipsparse::h(handle), (int)m));
}
inline hipsparseStatus_t hipsparseGetPointerMode(hipsparseHandle_t handle,
                                                 hipsparsePointerMode_t *m) {
  return pkemu::hipsparse::st(
      pkemu::sparse::get_pointer_mode(pkemu::hipsparse::h(handle), (int *)m));
}

inline hipsparseStatus_t hipsparseCreateMatDescr(hipsparseMatDescr_t *d) {
  return pkemu::hipsparse::st(
      pkemu::sparse::create_mat_descr((pkemu::sparse::MatDescr **)d));
}
inline hipsparseStatus_t hipsparseDestroyMatDescr(hipsparseMatDescr_t d) {
  delete (pkemu::sparse::MatDescr *)d;
  return HIPSPARSE_STATUS_SUCCESS;
}
inline hipsparseStatus_t hipsparseSetMatType(hipsparseMatDescr_t d,
                                             hipsparseMatrixType_t t) {
  if (!d)
    return HIPSPARSE_STATUS_INVALID_VALUE;
  ((pkemu::sparse::MatDescr *)d)->type = (int)t;
  return HIPSPARSE_STATUS_SUCCESS;
}
inline hipsparseStatus_t hipsparseSetMatIndexBase(hipsparseMatDescr_t d,
                                                  hipsparseIndexBase_t b) {
  if (!d)
    return HIPSPARSE_STATUS_INVALID_VALUE;
  ((pkemu::sparse::MatDescr *)d)->base = (int)b;
  return HIPSPARSE_STATUS_SUCCESS;
}
inline hipsparseMatrixType_t hipsparseGetMatType(const hipsparseMatDescr_t d) {
  return (hipsparseMatrixType_t)((const pkemu::sparse::MatDescr *)d)->type;
}
inline hipsparseIndexBase_t
hipsparseGetMatIndexBase(const hipsparseMatDescr_t d) {
  return (hipsparseIndexBase_t)((const pkemu::sparse::MatDescr *)d)->base;
}

inline hipsparseStatus_t
hipsparseCreateCsr(hipsparseSpMatDescr_t *m, int64_t rows, int64_t cols,
                   int64_t nnz, void *offsets, void *colind, void *values,
                   hipsparseIndexType_t offset_type,
                   hipsparseIndexType_t index_type, hipsparseIndexBase_t base,
                   hipDataType value_type) {
  return pkemu::hipsparse::st(pkemu::sparse::create_csr(
      (pkemu::sparse::SpMat **)m, rows, cols, nnz, offsets, colind, values,
      (int)offset_type, (int)index_type, (int)base, (int)value_type, false));
}
inline hipsparseStatus_t
hipsparseCreateCoo(hipsparseSpMatDescr_t *m, int64_t rows, int64_t cols,
                   int64_t nnz, void *rowind, void *colind, void *values,
                   hipsparseIndexType_t index_type, hipsparseIndexBase_t base,
                   hipDataType value_type) {
  return pkemu::hipsparse::st(pkemu::sparse::create_csr(
      (pkemu::sparse::SpMat **)m, rows, cols, nnz, rowind, colind, values,
      (int)index_type, (int)index_type, (int)base, (int)value_type, true));
}
inline hipsparseStatus_t hipsparseDestroySpMat(hipsparseSpMatDescr_t m) {
  delete (pkemu::sparse::SpMat *)m;
  return HIPSPARSE_STATUS_SUCCESS;
}
inline hipsparseStatus_t hipsparseCreateDnVec(hipsparseDnVecDescr_t *v,
                                              int64_t size, void *values,
                                              hipDataType value_type) {
  return pkemu::hipsparse::st(pkemu::sparse::create_dnvec(
      (pkemu::sparse::DnVec **)v, size, values, (int)value_type));
}
inline hipsparseStatus_t hipsparseDestroyDnVec(hipsparseDnVecDescr_t v) {
  delete (pkemu::sparse::DnVec *)v;
  return HIPSPARSE_STATUS_SUCCESS;
}
inline hipsparseStatus_t hipsparseCreateDnMat(hipsparseDnMatDescr_t *m,
                                              int64_t rows, int64_t cols,
                                              int64_t ld, void *values,
                                              hipDataType value_type,
                                              hipsparseOrder_t order) {
  return pkemu::hipsparse::st(pkemu::sparse::create_dnmat(
      (pkemu::sparse::DnMat **)m, rows, cols, ld, values, (int)value_type,
      order == HIPSPARSE_ORDER_ROW || order == HIPSPARSE_ORDER_COLUMN,
      order == HIPSPARSE_ORDER_ROW));
}
inline hipsparseStatus_t hipsparseDestroyDnMat(hipsparseDnMatDescr_t m) {
  delete (pkemu::sparse::DnMat *)m;
  return HIPSPARSE_STATUS_SUCCESS;
}
inline hipsparseStatus_t
hipsparseSpMV_bufferSize(hipsparseHandle_t handle, hipsparseOperation_t,
                         const void *, const hipsparseSpMatDescr_t,
                         const hipsparseDnVecDescr_t, const void *,
                         const hipsparseDnVecDescr_t, hipDataType,
                         hipsparseSpMVAlg_t, size_t *size) {
  return pkemu::hipsparse::st(
      pkemu::sparse::buffer_size(pkemu::hipsparse::h(handle), size));
}
inline hipsparseStatus_t
hipsparseSpMV(hipsparseHandle_t handle, hipsparseOperation_t op,
              const void *alpha, const hipsparseSpMatDescr_t A,
              const hipsparseDnVecDescr_t x, const void *beta,
              const hipsparseDnVecDescr_t y, hipDataType compute,
              hipsparseSpMVAlg_t, void *) {
  return pkemu::hipsparse::st(pkemu::sparse::spmv(
      pkemu::hipsparse::h(handle), (int)op, alpha,
      (const pkemu::sparse::SpMat *)A, (const pkemu::sparse::DnVec *)x, beta,
      (pkemu::sparse::DnVec *)y, (int)compute));
}
inline hipsparseStatus_t hipsparseSpMM_bufferSize(
    hipsparseHandle_t handle, hipsparseOperation_t, hipsparseOperation_t,
    const void *, const hipsparseSpMatDescr_t, const hipsparseDnMatDescr_t,
    const void *, const hipsparseDnMatDescr_t, hipDataType, hipsparseSpMMAlg_t,
    size_t *size) {
  return pkemu::hipsparse::st(
      pkemu::sparse::buffer_size(pkemu::hipsparse::h(handle), size));
}
inline hipsparseStatus_t
hipsparseSpMM(hipsparseHandle_t handle, hipsparseOperation_t opa,
              hipsparseOperation_t opb, const void *alpha,
              const hipsparseSpMatDescr_t A, const hipsparseDnMatDescr_t B,
              const void *beta, const hipsparseDnMatDescr_t C,
              hipDataType compute, hipsparseSpMMAlg_t, void *) {
  return pkemu::hipsparse::st(pkemu::sparse::spmm(
      pkemu::hipsparse::h(handle), (int)opa, (int)opb, alpha,
      (const pkemu::sparse::SpMat *)A, (const pkemu::sparse::DnMat *)B, beta,
      (pkemu::sparse::DnMat *)C, (int)compute));
}
// The guard of hipsparse.h (the port of CUSPARSEAPI, PK1025).
#ifndef _HIPSPARSE_H_
#define _HIPSPARSE_H_
#endif
#endif
