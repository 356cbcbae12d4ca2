//===- cublas_v2.h - cuBLAS for the emulator ---------------------*- C++
//-*-===//
// Rules: none (emulator runtime)
//
// The cuBLAS v2 calls of GEMM-based programs (handles, streams, math and
// pointer modes, Sgemm/Dgemm, their strided-batched forms, GemmEx and
// GemmStridedBatchedEx, and the level-1/2 routines gemv, axpy, scal, dot,
// nrm2, asum and copy in S and D), with the toolkit's types and values, computed by the
// CPU BLAS of pkemu/blas.h.  Other cuBLAS calls are not declared: a program
// that uses one does not build on the emulator (the build log names it).
//
//===----------------------------------------------------------------------===//
#ifndef PKEMU_CUBLAS_V2_H
#define PKEMU_CUBLAS_V2_H
#include "cuda_bf16.h"
#include "cuda_fp16.h"
#include "cuda_runtime.h"
#include "library_types.h"
#include "pkemu/blas.h"

typedef enum {
  CUBLAS_STATUS_SUCCESS = 0,
  CUBLAS_STATUS_NOT_INITIALIZED = 1,
  CUBLAS_STATUS_ALLOC_FAILED = 3,
  CUBLAS_STATUS_INVALID_VALUE = 7,
  CUBLAS_STATUS_ARCH_MISMATCH = 8,
  CUBLAS_STATUS_MAPPING_ERROR = 11,
  CUBLAS_STATUS_EXECUTION_FAILED = 13,
  CUBLAS_STATUS_INTERNAL_ERROR = 14,
  CUBLAS_STATUS_NOT_SUPPORTED = 15,
  CUBLAS_STATUS_LICENSE_ERROR = 16
} cublasStatus_t;
typedef enum {
  CUBLAS_OP_N = 0,
  CUBLAS_OP_T = 1,
  CUBLAS_OP_C = 2
} cublasOperation_t;
typedef enum {
  CUBLAS_POINTER_MODE_HOST = 0,
  CUBLAS_POINTER_MODE_DEVICE = 1
} cublasPointerMode_t;
typedef enum {
  CUBLAS_DEFAULT_MATH = 0,
  CUBLAS_TENSOR_OP_MATH = 1,
  CUBLAS_PEDANTIC_MATH = 2,
  CUBLAS_TF32_TENSOR_OP_MATH = 3,
  CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION = 16
} cublasMath_t;
typedef enum {
  CUBLAS_COMPUTE_16F = 64,
  CUBLAS_COMPUTE_16F_PEDANTIC = 65,
  CUBLAS_COMPUTE_32F = 68,
  CUBLAS_COMPUTE_32F_PEDANTIC = 69,
  CUBLAS_COMPUTE_32F_FAST_16F = 74,
  CUBLAS_COMPUTE_32F_FAST_16BF = 75,
  CUBLAS_COMPUTE_32F_FAST_TF32 = 77,
  CUBLAS_COMPUTE_64F = 70,
  CUBLAS_COMPUTE_64F_PEDANTIC = 71,
  CUBLAS_COMPUTE_32I = 72,
  CUBLAS_COMPUTE_32I_PEDANTIC = 73
} cublasComputeType_t;
typedef enum {
  CUBLAS_GEMM_DEFAULT = -1,
  CUBLAS_GEMM_DFALT = -1,
  CUBLAS_GEMM_DEFAULT_TENSOR_OP = 99,
  CUBLAS_GEMM_DFALT_TENSOR_OP = 99
} cublasGemmAlgo_t;
typedef struct cublasContext *cublasHandle_t;

namespace pkemu {
namespace cublas {
inline cublasStatus_t status(int s) {
  switch (s) {
  case blas::kOk:
    return CUBLAS_STATUS_SUCCESS;
  case blas::kInvalidValue:
    return CUBLAS_STATUS_INVALID_VALUE;
  case blas::kNotSupported:
    return CUBLAS_STATUS_NOT_SUPPORTED;
  default:
    return CUBLAS_STATUS_EXECUTION_FAILED;
  }
}
inline int op(cublasOperation_t o) {
  return o == CUBLAS_OP_N   ? blas::kN
         : o == CUBLAS_OP_T ? blas::kT
         : o == CUBLAS_OP_C ? blas::kC
                            : -1;
}
inline blas::Handle *h(cublasHandle_t x) { return (blas::Handle *)x; }
/// Element type of alpha and beta for a compute type; -1 when unsupported.
inline int scalar_type(cublasComputeType_t c) {
  switch (c) {
  case CUBLAS_COMPUTE_32F:
  case CUBLAS_COMPUTE_32F_PEDANTIC:
  case CUBLAS_COMPUTE_32F_FAST_16F:
  case CUBLAS_COMPUTE_32F_FAST_16BF:
  case CUBLAS_COMPUTE_32F_FAST_TF32:
    return blas::kR32F;
  case CUBLAS_COMPUTE_64F:
  case CUBLAS_COMPUTE_64F_PEDANTIC:
    return blas::kR64F;
  case CUBLAS_COMPUTE_16F:
  case CUBLAS_COMPUTE_16F_PEDANTIC:
    return blas::kR16F;
  default:
    return -1;
  }
}
} // namespace cublas
} // namespace pkemu

inline cublasStatus_t cublasCreate(cublasHandle_t *handle) {
  if (!handle)
    return CUBLAS_STATUS_INVALID_VALUE;
  *handle = (cublasHandle_t) new pkemu::blas::Handle();
  return CUBLAS_STATUS_SUCCESS;
}
inline cublasStatus_t cublasDestroy(cublasHandle_t handle) {
  if (!handle)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  delete pkemu::cublas::h(handle);
  return CUBLAS_STATUS_SUCCESS;
}
inline cublasStatus_t cublasSetStream(cublasHandle_t handle, cudaStream_t s) {
  if (!handle)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  pkemu::cublas::h(handle)->stream = (void *)s;
  return CUBLAS_STATUS_SUCCESS;
}
inline cublasStatus_t cublasGetStream(cublasHandle_t handle, cudaStream_t *s) {
  if (!handle)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  *s = (cudaStream_t)pkemu::cublas::h(handle)->stream;
  return CUBLAS_STATUS_SUCCESS;
}
inline cublasStatus_t cublasSetMathMode(cublasHandle_t handle,
                                        cublasMath_t mode) {
  if (!handle)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  pkemu::cublas::h(handle)->math_mode =
      (int)mode; // products are FP32 whatever the mode
  return CUBLAS_STATUS_SUCCESS;
}
inline cublasStatus_t cublasGetMathMode(cublasHandle_t handle,
                                        cublasMath_t *mode) {
  if (!handle)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  *mode = (cublasMath_t)pkemu::cublas::h(handle)->math_mode;
  return CUBLAS_STATUS_SUCCESS;
}
inline cublasStatus_t cublasSetPointerMode(cublasHandle_t handle,
                                           cublasPointerMode_t mode) {
  if (!handle)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  pkemu::cublas::h(handle)->pointer_mode_device =
      mode == CUBLAS_POINTER_MODE_DEVICE;
  return CUBLAS_STATUS_SUCCESS;
}
inline cublasStatus_t cublasGetPointerMode(cublasHandle_t handle,
                                           cublasPointerMode_t *mode) {
  if (!handle)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  *mode = pkemu::cublas::h(handle)->pointer_mode_device
              ? CUBLAS_POINTER_MODE_DEVICE
              : CUBLAS_POINTER_MODE_HOST;
  return CUBLAS_STATUS_SUCCESS;
}
inline const char *cublasGetStatusName(cublasStatus_t s) {
  switch (s) {
  case CUBLAS_STATUS_SUCCESS:
    return "CUBLAS_STATUS_SUCCESS";
  case CUBLAS_STATUS_NOT_INITIALIZED:
    return "CUBLAS_STATUS_NOT_INITIALIZED";
  case CUBLAS_STATUS_INVALID_VALUE:
    return "CUBLAS_STATUS_INVALID_VALUE";
  case CUBLAS_STATUS_NOT_SUPPORTED:
    return "CUBLAS_STATUS_NOT_SUPPORTED";
  case CUBLAS_STATUS_EXECUTION_FAILED:
    return "CUBLAS_STATUS_EXECUTION_FAILED";
  default:
    return "CUBLAS_STATUS_INTERNAL_ERROR";
  }
}
inline const char *cublasGetStatusString(cublasStatus_t s) {
  return cublasGetStatusName(s);
}

#define PKEMU_CUBLAS_GEMM(NAME, T, ELEM)                                       \
  inline cublasStatus_t NAME(cublasHandle_t handle, cublasOperation_t ta,      \
                             cublasOperation_t tb, int m, int n, int k,        \
                             const T *alpha, const T *A, int lda, const T *B,  \
                             int ldb, const T *beta, T *C, int ldc) {          \
    if (!handle)                                                               \
      return CUBLAS_STATUS_NOT_INITIALIZED;                                    \
    if (!alpha || !beta)                                                       \
      return CUBLAS_STATUS_INVALID_VALUE;                                      \
    return pkemu::cublas::status(pkemu::blas::gemm(                            \
        pkemu::cublas::op(ta), pkemu::cublas::op(tb), m, n, k,                 \
        pkemu::blas::read_scalar(alpha, ELEM), A, ELEM, lda, 0, B, ELEM, ldb,  \
        0, pkemu::blas::read_scalar(beta, ELEM), C, ELEM, ldc, 0, 1));         \
  }                                                                            \
  inline cublasStatus_t NAME##StridedBatched(                                  \
      cublasHandle_t handle, cublasOperation_t ta, cublasOperation_t tb,       \
      int m, int n, int k, const T *alpha, const T *A, int lda, long long sa,  \
      const T *B, int ldb, long long sb, const T *beta, T *C, int ldc,         \
      long long sc, int batch) {                                               \
    if (!handle)                                                               \
      return CUBLAS_STATUS_NOT_INITIALIZED;                                    \
    if (!alpha || !beta)                                                       \
      return CUBLAS_STATUS_INVALID_VALUE;                                      \
    return pkemu::cublas::status(pkemu::blas::gemm(                            \
        pkemu::cublas::op(ta), pkemu::cublas::op(tb), m, n, k,                 \
        pkemu::blas::read_scalar(alpha, ELEM), A, ELEM, lda, sa, B, ELEM, ldb, \
        sb, pkemu::blas::read_scalar(beta, ELEM), C, ELEM, ldc, sc, batch));   \
  }
PKEMU_CUBLAS_GEMM(cublasSgemm, float, pkemu::blas::kR32F)
PKEMU_CUBLAS_GEMM(cublasDgemm, double, pkemu::blas::kR64F)
#undef PKEMU_CUBLAS_GEMM

// Vectors and matrices to and from the device (one address space here; the
// Async forms are ordered like the library's other calls: at once).
inline cublasStatus_t cublasSetVector(int n, int es, const void *x, int incx, void *y,
                             int incy) {
  return pkemu::cublas::status(pkemu::blas::copy_vector(n, es, x, incx, y, incy));
}
inline cublasStatus_t cublasGetVector(int n, int es, const void *x, int incx, void *y,
                             int incy) {
  return pkemu::cublas::status(pkemu::blas::copy_vector(n, es, x, incx, y, incy));
}
inline cublasStatus_t cublasSetMatrix(int rows, int cols, int es, const void *A,
                             int lda, void *B, int ldb) {
  return pkemu::cublas::status(
      pkemu::blas::copy_matrix(rows, cols, es, A, lda, B, ldb));
}
inline cublasStatus_t cublasGetMatrix(int rows, int cols, int es, const void *A,
                             int lda, void *B, int ldb) {
  return pkemu::cublas::status(
      pkemu::blas::copy_matrix(rows, cols, es, A, lda, B, ldb));
}
inline cublasStatus_t cublasSetVectorAsync(int n, int es, const void *x, int incx,
                                  void *y, int incy, cudaStream_t) {
  return cublasSetVector(n, es, x, incx, y, incy);
}
inline cublasStatus_t cublasGetVectorAsync(int n, int es, const void *x, int incx,
                                  void *y, int incy, cudaStream_t) {
  return cublasGetVector(n, es, x, incx, y, incy);
}
inline cublasStatus_t cublasSetMatrixAsync(int rows, int cols, int es, const void *A,
                                  int lda, void *B, int ldb, cudaStream_t) {
  return cublasSetMatrix(rows, cols, es, A, lda, B, ldb);
}
inline cublasStatus_t cublasGetMatrixAsync(int rows, int cols, int es, const void *A,
                                  int lda, void *B, int ldb, cudaStream_t) {
  return cublasGetMatrix(rows, cols, es, A, lda, B, ldb);
}
// GEMMs over arrays of matrix pointers (device arrays).
#define PKEMU_CUBLAS_GEMM_BATCHED(NAME, T, ELEM)                                \
  inline cublasStatus_t NAME(                                                          \
      cublasHandle_t handle, cublasOperation_t ta, cublasOperation_t tb, int m, int n,  \
      int k, const T *alpha, const T *const A[], int lda, const T *const B[],  \
      int ldb, const T *beta, T *const C[], int ldc, int batch) {              \
    if (!handle)                                                               \
      return CUBLAS_STATUS_NOT_INITIALIZED;                                                          \
    if (!alpha || !beta)                                                       \
      return CUBLAS_STATUS_INVALID_VALUE;                                                         \
    return pkemu::cublas::status(pkemu::blas::gemm_batched(                      \
        pkemu::cublas::op(ta), pkemu::cublas::op(tb), m, n, k,                     \
        pkemu::blas::read_scalar(alpha, ELEM), (const void *const *)A, ELEM,   \
        lda, (const void *const *)B, ELEM, ldb,                                \
        pkemu::blas::read_scalar(beta, ELEM), (void *const *)C, ELEM, ldc,     \
        batch));                                                               \
  }
PKEMU_CUBLAS_GEMM_BATCHED(cublasSgemmBatched, float, pkemu::blas::kR32F)
PKEMU_CUBLAS_GEMM_BATCHED(cublasDgemmBatched, double, pkemu::blas::kR64F)
#undef PKEMU_CUBLAS_GEMM_BATCHED

// Level 1 and 2 (float and double): the CPU BLAS's routines.
#define PKEMU_CUBLAS_L12(P, T)                                                   \
  inline cublasStatus_t cublas##P##gemv(cublasHandle_t handle, cublasOperation_t ta, int m, int n,   \
                                const T *alpha, const T *A, int lda,           \
                                const T *x, int incx, const T *beta, T *y,     \
                                int incy) {                                    \
    if (!handle)                                                               \
      return CUBLAS_STATUS_NOT_INITIALIZED;                                                   \
    if (!alpha || !beta)                                                       \
      return CUBLAS_STATUS_INVALID_VALUE;                                       \
    return pkemu::cublas::status(pkemu::blas::gemv<T>(                           \
        pkemu::cublas::op(ta), m, n, *alpha, A, lda, x, incx, *beta, y, incy));  \
  }                                                                            \
  inline cublasStatus_t cublas##P##axpy(cublasHandle_t handle, int n, const T *alpha,   \
                                const T *x, int incx, T *y, int incy) {        \
    if (!handle)                                                               \
      return CUBLAS_STATUS_NOT_INITIALIZED;                                                   \
    if (!alpha)                                                                \
      return CUBLAS_STATUS_INVALID_VALUE;                                       \
    return pkemu::cublas::status(                                                \
        pkemu::blas::axpy<T>(n, *alpha, x, incx, y, incy));                    \
  }                                                                            \
  inline cublasStatus_t cublas##P##scal(cublasHandle_t handle, int n, const T *alpha,   \
                                T *x, int incx) {                              \
    if (!handle)                                                               \
      return CUBLAS_STATUS_NOT_INITIALIZED;                                                   \
    if (!alpha)                                                                \
      return CUBLAS_STATUS_INVALID_VALUE;                                       \
    return pkemu::cublas::status(pkemu::blas::scal<T>(n, *alpha, x, incx));      \
  }                                                                            \
  inline cublasStatus_t cublas##P##dot(cublasHandle_t handle, int n, const T *x,        \
                               int incx, const T *y, int incy, T *result) {    \
    if (!handle)                                                               \
      return CUBLAS_STATUS_NOT_INITIALIZED;                                                   \
    return pkemu::cublas::status(                                                \
        pkemu::blas::dot<T>(n, x, incx, y, incy, result));                     \
  }                                                                            \
  inline cublasStatus_t cublas##P##nrm2(cublasHandle_t handle, int n, const T *x,       \
                                int incx, T *result) {                         \
    if (!handle)                                                               \
      return CUBLAS_STATUS_NOT_INITIALIZED;                                                   \
    return pkemu::cublas::status(                                                \
        pkemu::blas::norm<T>(true, n, x, incx, result));                       \
  }                                                                            \
  inline cublasStatus_t cublas##P##asum(cublasHandle_t handle, int n, const T *x,       \
                                int incx, T *result) {                         \
    if (!handle)                                                               \
      return CUBLAS_STATUS_NOT_INITIALIZED;                                                   \
    return pkemu::cublas::status(                                                \
        pkemu::blas::norm<T>(false, n, x, incx, result));                      \
  }                                                                            \
  inline cublasStatus_t cublas##P##copy(cublasHandle_t handle, int n, const T *x,       \
                                int incx, T *y, int incy) {                    \
    if (!handle)                                                               \
      return CUBLAS_STATUS_NOT_INITIALIZED;                                                   \
    return pkemu::cublas::status(pkemu::blas::copy<T>(n, x, incx, y, incy));     \
  }
PKEMU_CUBLAS_L12(S, float)
PKEMU_CUBLAS_L12(D, double)
#undef PKEMU_CUBLAS_L12

inline cublasStatus_t cublasGemmStridedBatchedEx(
    cublasHandle_t handle, cublasOperation_t ta, cublasOperation_t tb, int m,
    int n, int k, const void *alpha, const void *A, cudaDataType at, int lda,
    long long sa, const void *B, cudaDataType bt, int ldb, long long sb,
    const void *beta, void *C, cudaDataType ct, int ldc, long long sc,
    int batch, cublasComputeType_t compute, cublasGemmAlgo_t) {
  if (!handle)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  int st = pkemu::cublas::scalar_type(compute);
  if (st < 0)
    return CUBLAS_STATUS_NOT_SUPPORTED;
  if (!alpha || !beta)
    return CUBLAS_STATUS_INVALID_VALUE;
  return pkemu::cublas::status(pkemu::blas::gemm(
      pkemu::cublas::op(ta), pkemu::cublas::op(tb), m, n, k,
      pkemu::blas::read_scalar(alpha, st), A, (int)at, lda, sa, B, (int)bt, ldb,
      sb, pkemu::blas::read_scalar(beta, st), C, (int)ct, ldc, sc, batch));
}
inline cublasStatus_t
cublasGemmEx(cublasHandle_t handle, cublasOperation_t ta, cublasOperation_t tb,
             int m, int n, int k, const void *alpha, const void *A,
             cudaDataType at, int lda, const void *B, cudaDataType bt, int ldb,
             const void *beta, void *C, cudaDataType ct, int ldc,
             cublasComputeType_t compute, cublasGemmAlgo_t algo) {
  return cublasGemmStridedBatchedEx(handle, ta, tb, m, n, k, alpha, A, at, lda,
                                    0, B, bt, ldb, 0, beta, C, ct, ldc, 0, 1,
                                    compute, algo);
}

#define cublasCreate_v2 cublasCreate
#define cublasDestroy_v2 cublasDestroy
#define cublasSetStream_v2 cublasSetStream
#define cublasGetStream_v2 cublasGetStream
#define cublasSetPointerMode_v2 cublasSetPointerMode
#define cublasGetPointerMode_v2 cublasGetPointerMode
#define cublasSgemm_v2 cublasSgemm
#define cublasDgemm_v2 cublasDgemm
#define cublasSgemv_v2 cublasSgemv
#define cublasDgemv_v2 cublasDgemv
#define cublasSaxpy_v2 cublasSaxpy
#define cublasDaxpy_v2 cublasDaxpy
#define cublasSscal_v2 cublasSscal
#define cublasDscal_v2 cublasDscal
#define cublasSdot_v2 cublasSdot
#define cublasDdot_v2 cublasDdot
#define cublasSnrm2_v2 cublasSnrm2
#define cublasDnrm2_v2 cublasDnrm2
#define cublasSasum_v2 cublasSasum
#define cublasDasum_v2 cublasDasum
#define cublasScopy_v2 cublasScopy
#define cublasDcopy_v2 cublasDcopy
// The guard of cublas_api.h: the CUDA samples' helper_cuda.h declares its
// cublasStatus_t error strings only where it is defined.
#ifndef CUBLAS_API_H_
#define CUBLAS_API_H_
#endif
#endif
