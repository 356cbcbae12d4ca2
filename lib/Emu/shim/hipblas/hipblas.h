//===- hipblas/hipblas.h - hipBLAS for the emulator --------------*- C++
//-*-===//
// Rules: none (emulator runtime)
//
// The hipBLAS calls of GEMM-based programs (handles, streams, math and
// pointer modes, Sgemm/Dgemm, their strided-batched forms, GemmEx and
// GemmStridedBatchedEx, and the level-1/2 routines gemv, axpy, scal, dot,
// nrm2, asum and copy in S and D), with hipBLAS 2's types and values, computed by the
// CPU BLAS of pkemu/blas.h.  As with ROCm 6's hipBLAS, the *Ex calls take
// hipDataType and hipblasComputeType_t only with HIPBLAS_V2 defined; without
// it they take the deprecated hipblasDatatype_t for every type argument, so
// a port that passes HIP_R_32F there does not compile here either.
//
//===----------------------------------------------------------------------===//
#ifndef PKEMU_HIPBLAS_H
#define PKEMU_HIPBLAS_H
#include "../hip/hip_runtime.h"
#include "../hip/library_types.h"
#include "../pkemu/blas.h"

typedef enum {
  HIPBLAS_STATUS_SUCCESS = 0,
  HIPBLAS_STATUS_NOT_INITIALIZED = 1,
  HIPBLAS_STATUS_ALLOC_FAILED = 2,
  HIPBLAS_STATUS_INVALID_VALUE = 3,
  HIPBLAS_STATUS_MAPPING_ERROR = 4,
  HIPBLAS_STATUS_EXECUTION_FAILED = 5,
  HIPBLAS_STATUS_INTERNAL_ERROR = 6,
  HIPBLAS_STATUS_NOT_SUPPORTED = 7,
  HIPBLAS_STATUS_ARCH_MISMATCH = 8,
  HIPBLAS_STATUS_HANDLE_IS_NULLPTR = 9,
  HIPBLAS_STATUS_INVALID_ENUM = 10,
  HIPBLAS_STATUS_UNKNOWN = 11
} hipblasStatus_t;
typedef enum {
  HIPBLAS_OP_N = 111,
  HIPBLAS_OP_T = 112,
  HIPBLAS_OP_C = 113
} hipblasOperation_t;
typedef enum {
  HIPBLAS_POINTER_MODE_HOST,
  HIPBLAS_POINTER_MODE_DEVICE
} hipblasPointerMode_t;
typedef enum {
  HIPBLAS_DEFAULT_MATH,
  HIPBLAS_XF32_XDL_MATH,
  HIPBLAS_PEDANTIC_MATH,
  HIPBLAS_TF32_TENSOR_OP_MATH,
  HIPBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION,
  HIPBLAS_TENSOR_OP_MATH
} hipblasMath_t;
typedef enum {
  HIPBLAS_COMPUTE_16F = 0,
  HIPBLAS_COMPUTE_16F_PEDANTIC = 1,
  HIPBLAS_COMPUTE_32F = 2,
  HIPBLAS_COMPUTE_32F_PEDANTIC = 3,
  HIPBLAS_COMPUTE_32F_FAST_16F = 4,
  HIPBLAS_COMPUTE_32F_FAST_16BF = 5,
  HIPBLAS_COMPUTE_32F_FAST_TF32 = 6,
  HIPBLAS_COMPUTE_64F = 7,
  HIPBLAS_COMPUTE_64F_PEDANTIC = 8,
  HIPBLAS_COMPUTE_32I = 9,
  HIPBLAS_COMPUTE_32I_PEDANTIC = 10
} hipblasComputeType_t;
typedef enum { HIPBLAS_GEMM_DEFAULT = 160 } hipblasGemmAlgo_t;
typedef void *hipblasHandle_t;
#ifdef HIPBLAS_V2
typedef hipDataType hipblasDatatype_t;
#else
typedef enum {
  HIPBLAS_R_16F = 150,
  HIPBLAS_R_32F = 151,
  HIPBLAS_R_64F = 152,
  HIPBLAS_R_16B = 168
} hipblasDatatype_t;
#endif

namespace pkemu {
namespace hipblas {
inline hipblasStatus_t status(int s) {
  switch (s) {
  case blas::kOk:
    return HIPBLAS_STATUS_SUCCESS;
  case blas::kInvalidValue:
    return HIPBLAS_STATUS_INVALID_VALUE;
  case blas::kNotSupported:
    return HIPBLAS_STATUS_NOT_SUPPORTED;
  default:
    return HIPBLAS_STATUS_EXECUTION_FAILED;
  }
}
inline int op(hipblasOperation_t o) {
  return (int)o;
} // CBLAS numbering already
inline blas::Handle *h(hipblasHandle_t x) { return (blas::Handle *)x; }
#ifdef HIPBLAS_V2
inline int elem(hipDataType t) { return (int)t; }
inline int scalar_type(hipblasComputeType_t c) {
  switch (c) {
  case HIPBLAS_COMPUTE_32F:
  case HIPBLAS_COMPUTE_32F_PEDANTIC:
  case HIPBLAS_COMPUTE_32F_FAST_16F:
  case HIPBLAS_COMPUTE_32F_FAST_16BF:
  case HIPBLAS_COMPUTE_32F_FAST_TF32:
    return blas::kR32F;
  case HIPBLAS_COMPUTE_64F:
  case HIPBLAS_COMPUTE_64F_PEDANTIC:
    return blas::kR64F;
  case HIPBLAS_COMPUTE_16F:
  case HIPBLAS_COMPUTE_16F_PEDANTIC:
    return blas::kR16F;
  default:
    return -1;
  }
}
#else
inline int elem(hipblasDatatype_t t) {
  switch (t) {
  case HIPBLAS_R_16F:
    return blas::kR16F;
  case HIPBLAS_R_32F:
    return blas::kR32F;
  case HIPBLAS_R_64F:
    return blas::kR64F;
  case HIPBLAS_R_16B:
    return blas::kR16BF;
  default:
    return -1;
  }
}
inline int scalar_type(hipblasDatatype_t c) { return elem(c); }
#endif
} // namespace hipblas
} // namespace pkemu

inline hipblasStatus_t hipblasCreate(hipblasHandle_t *handle) {
  if (!handle)
    return HIPBLAS_STATUS_HANDLE_IS_NULLPTR;
  *handle = (hipblasHandle_t) new pkemu::blas::Handle();
  return HIPBLAS_STATUS_SUCCESS;
}
inline hipblasStatus_t hipblasDestroy(hipblasHandle_t handle) {
  if (!handle)
    return HIPBLAS_STATUS_HANDLE_IS_NULLPTR;
  delete pkemu::hipblas::h(handle);
  return HIPBLAS_STATUS_SUCCESS;
}
inline hipblasStatus_t hipblasSetStream(hipblasHandle_t handle, hipStream_t s) {
  if (!handle)
    return HIPBLAS_STATUS_HANDLE_IS_NULLPTR;
  pkemu::hipblas::h(handle)->stream = (void *)s;
  return HIPBLAS_STATUS_SUCCESS;
}
inline hipblasStatus_t hipblasGetStream(hipblasHandle_t handle,
                                        hipStream_t *s) {
  if (!handle)
    return HIPBLAS_STATUS_HANDLE_IS_NULLPTR;
  *s = (hipStream_t)pkemu::hipblas::h(handle)->stream;
  return HIPBLAS_STATUS_SUCCESS;
}
inline hipblasStatus_t hipblasSetMathMode(hipblasHandle_t handle,
                                          hipblasMath_t mode) {
  if (!handle)
    return HIPBLAS_STATUS_HANDLE_IS_NULLPTR;
  pkemu::hipblas::h(handle)->math_mode =
      (int)mode; // products are FP32 whatever the mode
  return HIPBLAS_STATUS_SUCCESS;
}
inline hipblasStatus_t hipblasGetMathMode(hipblasHandle_t handle,
                                          hipblasMath_t *mode) {
  if (!handle)
    return HIPBLAS_STATUS_HANDLE_IS_NULLPTR;
  *mode = (hipblasMath_t)pkemu::hipblas::h(handle)->math_mode;
  return HIPBLAS_STATUS_SUCCESS;
}
inline hipblasStatus_t hipblasSetPointerMode(hipblasHandle_t handle,
                                             hipblasPointerMode_t mode) {
  if (!handle)
    return HIPBLAS_STATUS_HANDLE_IS_NULLPTR;
  pkemu::hipblas::h(handle)->pointer_mode_device =
      mode == HIPBLAS_POINTER_MODE_DEVICE;
  return HIPBLAS_STATUS_SUCCESS;
}
inline hipblasStatus_t hipblasGetPointerMode(hipblasHandle_t handle,
                                             hipblasPointerMode_t *mode) {
  if (!handle)
    return HIPBLAS_STATUS_HANDLE_IS_NULLPTR;
  *mode = pkemu::hipblas::h(handle)->pointer_mode_device
              ? HIPBLAS_POINTER_MODE_DEVICE
              : HIPBLAS_POINTER_MODE_HOST;
  return HIPBLAS_STATUS_SUCCESS;
}
inline const char *hipblasStatusToString(hipblasStatus_t s) {
  switch (s) {
  case HIPBLAS_STATUS_SUCCESS:
    return "HIPBLAS_STATUS_SUCCESS";
  case HIPBLAS_STATUS_HANDLE_IS_NULLPTR:
    return "HIPBLAS_STATUS_HANDLE_IS_NULLPTR";
  case HIPBLAS_STATUS_INVALID_VALUE:
    return "HIPBLAS_STATUS_INVALID_VALUE";
  case HIPBLAS_STATUS_NOT_SUPPORTED:
    return "HIPBLAS_STATUS_NOT_SUPPORTED";
  case HIPBLAS_STATUS_EXECUTION_FAILED:
    return "HIPBLAS_STATUS_EXECUTION_FAILED";
  default:
    return "HIPBLAS_STATUS_INTERNAL_ERROR";
  }
}

#define PKEMU_HIPBLAS_GEMM(NAME, T, ELEM)                                      \
  inline hipblasStatus_t NAME(hipblasHandle_t handle, hipblasOperation_t ta,   \
                              hipblasOperation_t tb, int m, int n, int k,      \
                              const T *alpha, const T *A, int lda, const T *B, \
                              int ldb, const T *beta, T *C, int ldc) {         \
    if (!handle)                                                               \
      return HIPBLAS_STATUS_HANDLE_IS_NULLPTR;                                 \
    if (!alpha || !beta)                                                       \
      return HIPBLAS_STATUS_INVALID_VALUE;                                     \
    return pkemu::hipblas::status(pkemu::blas::gemm(                           \
        pkemu::hipblas::op(ta), pkemu::hipblas::op(tb), m, n, k,               \
        pkemu::blas::read_scalar(alpha, ELEM), A, ELEM, lda, 0, B, ELEM, ldb,  \
        0, pkemu::blas::read_scalar(beta, ELEM), C, ELEM, ldc, 0, 1));         \
  }                                                                            \
  inline hipblasStatus_t NAME##StridedBatched(                                 \
      hipblasHandle_t handle, hipblasOperation_t ta, hipblasOperation_t tb,    \
      int m, int n, int k, const T *alpha, const T *A, int lda, long long sa,  \
      const T *B, int ldb, long long sb, const T *beta, T *C, int ldc,         \
      long long sc, int batch) {                                               \
    if (!handle)                                                               \
      return HIPBLAS_STATUS_HANDLE_IS_NULLPTR;                                 \
    if (!alpha || !beta)                                                       \
      return HIPBLAS_STATUS_INVALID_VALUE;                                     \
    return pkemu::hipblas::status(pkemu::blas::gemm(                           \
        pkemu::hipblas::op(ta), pkemu::hipblas::op(tb), m, n, k,               \
        pkemu::blas::read_scalar(alpha, ELEM), A, ELEM, lda, sa, B, ELEM, ldb, \
        sb, pkemu::blas::read_scalar(beta, ELEM), C, ELEM, ldc, sc, batch));   \
  }
PKEMU_HIPBLAS_GEMM(hipblasSgemm, float, pkemu::blas::kR32F)
PKEMU_HIPBLAS_GEMM(hipblasDgemm, double, pkemu::blas::kR64F)
#undef PKEMU_HIPBLAS_GEMM

// Vectors and matrices to and from the device (one address space here; the
// Async forms are ordered like the library's other calls: at once).
inline hipblasStatus_t hipblasSetVector(int n, int es, const void *x, int incx, void *y,
                             int incy) {
  return pkemu::hipblas::status(pkemu::blas::copy_vector(n, es, x, incx, y, incy));
}
inline hipblasStatus_t hipblasGetVector(int n, int es, const void *x, int incx, void *y,
                             int incy) {
  return pkemu::hipblas::status(pkemu::blas::copy_vector(n, es, x, incx, y, incy));
}
inline hipblasStatus_t hipblasSetMatrix(int rows, int cols, int es, const void *A,
                             int lda, void *B, int ldb) {
  return pkemu::hipblas::status(
      pkemu::blas::copy_matrix(rows, cols, es, A, lda, B, ldb));
}
inline hipblasStatus_t hipblasGetMatrix(int rows, int cols, int es, const void *A,
                             int lda, void *B, int ldb) {
  return pkemu::hipblas::status(
      pkemu::blas::copy_matrix(rows, cols, es, A, lda, B, ldb));
}
inline hipblasStatus_t hipblasSetVectorAsync(int n, int es, const void *x, int incx,
                                  void *y, int incy, hipStream_t) {
  return hipblasSetVector(n, es, x, incx, y, incy);
}
inline hipblasStatus_t hipblasGetVectorAsync(int n, int es, const void *x, int incx,
                                  void *y, int incy, hipStream_t) {
  return hipblasGetVector(n, es, x, incx, y, incy);
}
inline hipblasStatus_t hipblasSetMatrixAsync(int rows, int cols, int es, const void *A,
                                  int lda, void *B, int ldb, hipStream_t) {
  return hipblasSetMatrix(rows, cols, es, A, lda, B, ldb);
}
inline hipblasStatus_t hipblasGetMatrixAsync(int rows, int cols, int es, const void *A,
                                  int lda, void *B, int ldb, hipStream_t) {
  return hipblasGetMatrix(rows, cols, es, A, lda, B, ldb);
}
// GEMMs over arrays of matrix pointers (device arrays).
#define PKEMU_HIPBLAS_GEMM_BATCHED(NAME, T, ELEM)                                \
  inline hipblasStatus_t NAME(                                                          \
      hipblasHandle_t handle, hipblasOperation_t ta, hipblasOperation_t tb, int m, int n,  \
      int k, const T *alpha, const T *const A[], int lda, const T *const B[],  \
      int ldb, const T *beta, T *const C[], int ldc, int batch) {              \
    if (!handle)                                                               \
      return HIPBLAS_STATUS_HANDLE_IS_NULLPTR;                                                          \
    if (!alpha || !beta)                                                       \
      return HIPBLAS_STATUS_INVALID_VALUE;                                                         \
    return pkemu::hipblas::status(pkemu::blas::gemm_batched(                      \
        pkemu::hipblas::op(ta), pkemu::hipblas::op(tb), m, n, k,                     \
        pkemu::blas::read_scalar(alpha, ELEM), (const void *const *)A, ELEM,   \
        lda, (const void *const *)B, ELEM, ldb,                                \
        pkemu::blas::read_scalar(beta, ELEM), (void *const *)C, ELEM, ldc,     \
        batch));                                                               \
  }
PKEMU_HIPBLAS_GEMM_BATCHED(hipblasSgemmBatched, float, pkemu::blas::kR32F)
PKEMU_HIPBLAS_GEMM_BATCHED(hipblasDgemmBatched, double, pkemu::blas::kR64F)
#undef PKEMU_HIPBLAS_GEMM_BATCHED

// Level 1 and 2 (float and double): the CPU BLAS's routines.
#define PKEMU_HIPBLAS_L12(P, T)                                                   \
  inline hipblasStatus_t hipblas##P##gemv(hipblasHandle_t handle, hipblasOperation_t ta, int m, int n,   \
                                const T *alpha, const T *A, int lda,           \
                                const T *x, int incx, const T *beta, T *y,     \
                                int incy) {                                    \
    if (!handle)                                                               \
      return HIPBLAS_STATUS_HANDLE_IS_NULLPTR;                                                   \
    if (!alpha || !beta)                                                       \
      return HIPBLAS_STATUS_INVALID_VALUE;                                       \
    return pkemu::hipblas::status(pkemu::blas::gemv<T>(                           \
        pkemu::hipblas::op(ta), m, n, *alpha, A, lda, x, incx, *beta, y, incy));  \
  }                                                                            \
  inline hipblasStatus_t hipblas##P##axpy(hipblasHandle_t handle, int n, const T *alpha,   \
                                const T *x, int incx, T *y, int incy) {        \
    if (!handle)                                                               \
      return HIPBLAS_STATUS_HANDLE_IS_NULLPTR;                                                   \
    if (!alpha)                                                                \
      return HIPBLAS_STATUS_INVALID_VALUE;                                       \
    return pkemu::hipblas::status(                                                \
        pkemu::blas::axpy<T>(n, *alpha, x, incx, y, incy));                    \
  }                                                                            \
  inline hipblasStatus_t hipblas##P##scal(hipblasHandle_t handle, int n, const T *alpha,   \
                                T *x, int incx) {                              \
    if (!handle)                                                               \
      return HIPBLAS_STATUS_HANDLE_IS_NULLPTR;                                                   \
    if (!alpha)                                                                \
      return HIPBLAS_STATUS_INVALID_VALUE;                                       \
    return pkemu::hipblas::status(pkemu::blas::scal<T>(n, *alpha, x, incx));      \
  }                                                                            \
  inline hipblasStatus_t hipblas##P##dot(hipblasHandle_t handle, int n, const T *x,        \
                               int incx, const T *y, int incy, T *result) {    \
    if (!handle)                                                               \
      return HIPBLAS_STATUS_HANDLE_IS_NULLPTR;                                                   \
    return pkemu::hipblas::status(                                                \
        pkemu::blas::dot<T>(n, x, incx, y, incy, result));                     \
  }                                                                            \
  inline hipblasStatus_t hipblas##P##nrm2(hipblasHandle_t handle, int n, const T *x,       \
                                int incx, T *result) {                         \
    if (!handle)                                                               \
      return HIPBLAS_STATUS_HANDLE_IS_NULLPTR;                                                   \
    return pkemu::hipblas::status(                                                \
        pkemu::blas::norm<T>(true, n, x, incx, result));                       \
  }                                                                            \
  inline hipblasStatus_t hipblas##P##asum(hipblasHandle_t handle, int n, const T *x,       \
                                int incx, T *result) {                         \
    if (!handle)                                                               \
      return HIPBLAS_STATUS_HANDLE_IS_NULLPTR;                                                   \
    return pkemu::hipblas::status(                                                \
        pkemu::blas::norm<T>(false, n, x, incx, result));                      \
  }                                                                            \
  inline hipblasStatus_t hipblas##P##copy(hipblasHandle_t handle, int n, const T *x,       \
                                int incx, T *y, int incy) {                    \
    if (!handle)                                                               \
      return HIPBLAS_STATUS_HANDLE_IS_NULLPTR;                                                   \
    return pkemu::hipblas::status(pkemu::blas::copy<T>(n, x, incx, y, incy));     \
  }
PKEMU_HIPBLAS_L12(S, float)
PKEMU_HIPBLAS_L12(D, double)
#undef PKEMU_HIPBLAS_L12

#ifdef HIPBLAS_V2
#define PKEMU_HIPBLAS_DT hipDataType
#define PKEMU_HIPBLAS_CT hipblasComputeType_t
#else
#define PKEMU_HIPBLAS_DT hipblasDatatype_t
#define PKEMU_HIPBLAS_CT hipblasDatatype_t
#endif
inline hipblasStatus_t hipblasGemmStridedBatchedEx(
    hipblasHandle_t handle, hipblasOperation_t ta, hipblasOperation_t tb, int m,
    int n, int k, const void *alpha, const void *A, PKEMU_HIPBLAS_DT at,
    int lda, long long sa, const void *B, PKEMU_HIPBLAS_DT bt, int ldb,
    long long sb, const void *beta, void *C, PKEMU_HIPBLAS_DT ct, int ldc,
    long long sc, int batch, PKEMU_HIPBLAS_CT compute, hipblasGemmAlgo_t) {
  if (!handle)
    return HIPBLAS_STATUS_HANDLE_IS_NULLPTR;
  int st = pkemu::hipblas::scalar_type(compute);
  int ea = pkemu::hipblas::elem(at), eb = pkemu::hipblas::elem(bt),
      ec = pkemu::hipblas::elem(ct);
  if (st < 0 || ea < 0 || eb < 0 || ec < 0)
    return HIPBLAS_STATUS_NOT_SUPPORTED;
  if (!alpha || !beta)
    return HIPBLAS_STATUS_INVALID_VALUE;
  return pkemu::hipblas::status(pkemu::blas::gemm(
      pkemu::hipblas::op(ta), pkemu::hipblas::op(tb), m, n, k,
      pkemu::blas::read_scalar(alpha, st), A, ea, lda, sa, B, eb, ldb, sb,
      pkemu::blas::read_scalar(beta, st), C, ec, ldc, sc, batch));
}
inline hipblasStatus_t
hipblasGemmEx(hipblasHandle_t handle, hipblasOperation_t ta,
              hipblasOperation_t tb, int m, int n, int k, const void *alpha,
              const void *A, PKEMU_HIPBLAS_DT at, int lda, const void *B,
              PKEMU_HIPBLAS_DT bt, int ldb, const void *beta, void *C,
              PKEMU_HIPBLAS_DT ct, int ldc, PKEMU_HIPBLAS_CT compute,
              hipblasGemmAlgo_t algo) {
  return hipblasGemmStridedBatchedEx(handle, ta, tb, m, n, k, alpha, A, at, lda,
                                     0, B, bt, ldb, 0, beta, C, ct, ldc, 0, 1,
                                     compute, algo);
}
#undef PKEMU_HIPBLAS_DT
#undef PKEMU_HIPBLAS_CT
// The guard of hipblas.h (the port of cublas_api.h's, PK1021).
#ifndef HIPBLAS_H
#define HIPBLAS_H
#endif
#endif
