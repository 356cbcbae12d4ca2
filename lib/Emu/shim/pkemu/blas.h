//===- blas.h - BLAS behind the cuBLAS and hipBLAS shims --------*- C++ -*-===//
// Rules: none (emulator runtime)
//
// The GEMM family of cuBLAS and hipBLAS and their common level-1 and level-2
// routines (gemv, axpy, scal, dot, nrm2, asum, copy), for the emulator: the
// calls become CPU BLAS calls (cblas_sgemm / cblas_dgemm / cblas_sgemv ... of OpenBLAS, Debian's
// libopenblas0, loaded with dlopen when a program first multiplies, so that
// programs without BLAS calls need nothing).  Work runs in issue order like
// the emulator's kernels, so a GEMM on a stream is complete when the call
// returns.  Device buffers are host memory in the emulator; the element
// conversions (fp16, bf16) are not instrumented, like a library's own code.
// OpenBLAS runs with one thread: results are the same from run to run.
//
// Both shims pass operations in CBLAS numbering (111 N, 112 T, 113 C) and
// element types in library_types.h numbering (0 R_32F, 1 R_64F, 2 R_16F,
// 14 R_16BF), which CUDA and HIP share.
//
//===----------------------------------------------------------------------===//
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <vector>

namespace pkemu {
namespace blas {

enum Status {
  kOk = 0,
  kInvalidValue = 1,
  kNotSupported = 2,
  kExecutionFailed = 3
};
enum Op { kN = 111, kT = 112, kC = 113 };
enum Elem { kR32F = 0, kR64F = 1, kR16F = 2, kR16BF = 14 };

struct Handle {
  int math_mode = 0;
  int pointer_mode_device = 0;
  void *stream = nullptr;
};

typedef void (*SgemmFn)(int, int, int, int, int, int, float, const float *, int,
                        const float *, int, float, float *, int);
typedef void (*DgemmFn)(int, int, int, int, int, int, double, const double *,
                        int, const double *, int, double, double *, int);

/// Level-1 and level-2 routines of the CPU BLAS, per element type (index 0
/// float, 1 double); optional: a call whose routine is missing fails.
template <class T> struct Level12 {
  void (*gemv)(int, int, int, int, T, const T *, int, const T *, int, T, T *,
               int) = nullptr;
  void (*axpy)(int, T, const T *, int, T *, int) = nullptr;
  void (*scal)(int, T, T *, int) = nullptr;
  T (*dot)(int, const T *, int, const T *, int) = nullptr;
  T (*nrm2)(int, const T *, int) = nullptr;
  T (*asum)(int, const T *, int) = nullptr;
  void (*copy)(int, const T *, int, T *, int) = nullptr;
};

struct Lib {
  SgemmFn sgemm = nullptr;
  DgemmFn dgemm = nullptr;
  Level12<float> s;
  Level12<double> d;
};

template <class T> inline void bind(void *h, Level12<T> &L, char p) {
  auto sym = [&](const char *f) {
    char name[32];
    std::snprintf(name, sizeof name, "cblas_%c%s", p, f);
    return dlsym(h, name);
  };
  L.gemv = (decltype(L.gemv))sym("gemv");
  L.axpy = (decltype(L.axpy))sym("axpy");
  L.scal = (decltype(L.scal))sym("scal");
  L.dot = (decltype(L.dot))sym("dot");
  L.nrm2 = (decltype(L.nrm2))sym("nrm2");
  L.asum = (decltype(L.asum))sym("asum");
  L.copy = (decltype(L.copy))sym("copy");
}

inline const Lib &lib() {
  static Lib L = [] {
    Lib R;
    const char *names[] = {"libopenblas.so.0", "libopenblas.so",
                           "libblas.so.3"};
    for (const char *n : names) {
      void *h = dlopen(n, RTLD_NOW | RTLD_LOCAL);
      if (!h)
        continue;
      R.sgemm = (SgemmFn)dlsym(h, "cblas_sgemm");
      R.dgemm = (DgemmFn)dlsym(h, "cblas_dgemm");
      if (R.sgemm && R.dgemm) {
        bind(h, R.s, 's');
        bind(h, R.d, 'd');
        typedef void (*SetThreads)(int);
        if (auto st = (SetThreads)dlsym(h, "openblas_set_num_threads"))
          st(1);
        break;
      }
      R.sgemm = nullptr;
      R.dgemm = nullptr;
    }
    if (!R.sgemm)
      std::fprintf(stderr,
                   "pkemu: cuBLAS/hipBLAS calls need a CPU BLAS: install "
                   "libopenblas0 (Debian: apt-get install libopenblas-dev)\n");
    return R;
  }();
  return L;
}

__attribute__((no_sanitize("thread"))) inline float
half_to_float(std::uint16_t h) {
  std::uint32_t s = (h & 0x8000u) << 16, e = (h >> 10) & 0x1f, m = h & 0x3ff, u;
  if (e == 0) {
    if (m == 0)
      u = s;
    else { // subnormal: normalise
      int k = -1;
      do {
        ++k;
        m <<= 1;
      } while (!(m & 0x400));
      u = s | ((127 - 15 - k) << 23) | ((m & 0x3ff) << 13);
    }
  } else if (e == 31)
    u = s | 0x7f800000u | (m << 13);
  else
    u = s | ((e - 15 + 127) << 23) | (m << 13);
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

__attribute__((no_sanitize("thread"))) inline std::uint16_t
float_to_half(float f) {
  std::uint32_t x;
  std::memcpy(&x, &f, 4);
  std::uint32_t s = (x >> 16) & 0x8000u;
  std::int32_t e = (std::int32_t)((x >> 23) & 0xff) - 127 + 15;
  std::uint32_t m = x & 0x7fffffu;
  if (((x >> 23) & 0xff) == 0xff)
    return (std::uint16_t)(s | 0x7c00u | (m ? 0x200u : 0));
  if (e >= 31)
    return (std::uint16_t)(s | 0x7c00u);
  if (e <= 0) {
    if (e < -10)
      return (std::uint16_t)s;
    m |= 0x800000u;
    std::uint32_t shift = (std::uint32_t)(14 - e);
    std::uint32_t hm = m >> shift, rem = m & ((1u << shift) - 1),
                  half = 1u << (shift - 1);
    if (rem > half || (rem == half && (hm & 1)))
      ++hm;
    return (std::uint16_t)(s | hm);
  }
  std::uint32_t hm = m >> 13, rem = m & 0x1fff;
  std::uint32_t out = s | ((std::uint32_t)e << 10) | hm;
  if (rem > 0x1000 || (rem == 0x1000 && (hm & 1)))
    ++out; // may carry into the exponent: still correct rounding
  return (std::uint16_t)out;
}

__attribute__((no_sanitize("thread"))) inline float
bf16_to_float(std::uint16_t b) {
  std::uint32_t u = (std::uint32_t)b << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

__attribute__((no_sanitize("thread"))) inline std::uint16_t
float_to_bf16(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, 4);
  if ((u & 0x7fffffffu) > 0x7f800000u)
    return (std::uint16_t)((u >> 16) | 0x40);
  u += 0x7fffu + ((u >> 16) & 1);
  return (std::uint16_t)(u >> 16);
}

inline bool elem_ok(int t) {
  return t == kR32F || t == kR64F || t == kR16F || t == kR16BF;
}
inline std::size_t elem_size(int t) {
  return t == kR64F ? 8 : t == kR32F ? 4 : 2;
}

/// Reads a scalar (alpha, beta) of element type \p t, as float.
__attribute__((no_sanitize("thread"))) inline double read_scalar(const void *p,
                                                                 int t) {
  switch (t) {
  case kR64F:
    return *(const double *)p;
  case kR16F:
    return half_to_float(*(const std::uint16_t *)p);
  case kR16BF:
    return bf16_to_float(*(const std::uint16_t *)p);
  default:
    return *(const float *)p;
  }
}

__attribute__((no_sanitize("thread"))) inline float load(const void *p, int t,
                                                         std::size_t i) {
  switch (t) {
  case kR64F:
    return (float)((const double *)p)[i];
  case kR16F:
    return half_to_float(((const std::uint16_t *)p)[i]);
  case kR16BF:
    return bf16_to_float(((const std::uint16_t *)p)[i]);
  default:
    return ((const float *)p)[i];
  }
}

__attribute__((no_sanitize("thread"))) inline void
store(void *p, int t, std::size_t i, float v) {
  switch (t) {
  case kR64F:
    ((double *)p)[i] = v;
    break;
  case kR16F:
    ((std::uint16_t *)p)[i] = float_to_half(v);
    break;
  case kR16BF:
    ((std::uint16_t *)p)[i] = float_to_bf16(v);
    break;
  default:
    ((float *)p)[i] = v;
  }
}

inline int check(int ta, int tb, int m, int n, int k, int lda, int ldb,
                 int ldc) {
  auto op = [](int o) { return o == kN || o == kT || o == kC; };
  if (!op(ta) || !op(tb) || m < 0 || n < 0 || k < 0)
    return kInvalidValue;
  int rowsA = ta == kN ? m : k, rowsB = tb == kN ? k : n;
  if (lda < (rowsA > 1 ? rowsA : 1) || ldb < (rowsB > 1 ? rowsB : 1) ||
      ldc < (m > 1 ? m : 1))
    return kInvalidValue;
  return kOk;
}

/// C = alpha op(A) op(B) + beta C, column-major, batched with strides (in
/// elements).  Element types \p at, \p bt, \p ct; the product is computed in
/// FP32 (FP64 when all three are R_64F).
__attribute__((no_sanitize("thread"))) inline int
gemm(int ta, int tb, int m, int n, int k, double alpha, const void *A, int at,
     int lda, long long sa, const void *B, int bt, int ldb, long long sb,
     double beta, void *C, int ct, int ldc, long long sc, int batch) {
  if (int e = check(ta, tb, m, n, k, lda, ldb, ldc))
    return e;
  if (!elem_ok(at) || !elem_ok(bt) || !elem_ok(ct) || batch < 0)
    return kNotSupported;
  if (m == 0 || n == 0 || batch == 0)
    return kOk;
  const Lib &L = lib();
  if (!L.sgemm)
    return kExecutionFailed;
  const int col = 102; // CblasColMajor
  int colsA = ta == kN ? k : m, colsB = tb == kN ? n : k;
  for (int b = 0; b < batch; ++b) {
    const char *Ab = (const char *)A + (std::size_t)(sa * b) * elem_size(at);
    const char *Bb = (const char *)B + (std::size_t)(sb * b) * elem_size(bt);
    char *Cb = (char *)C + (std::size_t)(sc * b) * elem_size(ct);
    if (at == kR64F && bt == kR64F && ct == kR64F) {
      L.dgemm(col, ta, tb, m, n, k, alpha, (const double *)Ab, lda,
              (const double *)Bb, ldb, beta, (double *)Cb, ldc);
      continue;
    }
    if (at == kR32F && bt == kR32F && ct == kR32F) {
      L.sgemm(col, ta, tb, m, n, k, (float)alpha, (const float *)Ab, lda,
              (const float *)Bb, ldb, (float)beta, (float *)Cb, ldc);
      continue;
    }
    // Mixed or 16-bit elements: FP32 copies (k x 0 products need no A or B).
    int rowsA = ta == kN ? m : k, rowsB = tb == kN ? k : n;
    std::vector<float> a(colsA ? (std::size_t)lda * (colsA - 1) + rowsA : 0),
        bb(colsB ? (std::size_t)ldb * (colsB - 1) + rowsB : 0),
        c((std::size_t)ldc * (n - 1) + m);
    for (std::size_t i = 0; i < a.size(); ++i)
      a[i] = load(Ab, at, i);
    for (std::size_t i = 0; i < bb.size(); ++i)
      bb[i] = load(Bb, bt, i);
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < m; ++i)
        c[(std::size_t)j * ldc + i] =
            beta == 0 ? 0.0f : load(Cb, ct, (std::size_t)j * ldc + i);
    a.resize(a.size() + 1); // never empty: BLAS reads no element when k == 0
    bb.resize(bb.size() + 1);
    L.sgemm(col, ta, tb, m, n, k, (float)alpha, a.data(), lda, bb.data(), ldb,
            (float)beta, c.data(), ldc);
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < m; ++i)
        store(Cb, ct, (std::size_t)j * ldc + i, c[(std::size_t)j * ldc + i]);
  }
  return kOk;
}

template <class T> inline const Level12<T> &level12();
template <> inline const Level12<float> &level12<float>() { return lib().s; }
template <> inline const Level12<double> &level12<double>() {
  return lib().d;
}

/// y = alpha op(A) x + beta y, A m x n column-major (CBLAS numbering for op).
template <class T>
__attribute__((no_sanitize("thread"))) inline int
gemv(int ta, int m, int n, T alpha, const T *A, int lda, const T *x, int incx,
     T beta, T *y, int incy) {
  if ((ta != kN && ta != kT && ta != kC) || m < 0 || n < 0 ||
      lda < (m > 1 ? m : 1) || incx == 0 || incy == 0)
    return kInvalidValue;
  if (m == 0 || n == 0)
    return kOk;
  const Level12<T> &L = level12<T>();
  if (!L.gemv)
    return kExecutionFailed;
  L.gemv(102, ta, m, n, alpha, A, lda, x, incx, beta, y, incy);
  return kOk;
}
/// The level-1 routines: y = alpha x + y, x = alpha x, x.y, ||x||, sum |x|,
/// y = x.  A negative count does nothing, as in BLAS.
template <class T>
__attribute__((no_sanitize("thread"))) inline int
axpy(int n, T alpha, const T *x, int incx, T *y, int incy) {
  if (n <= 0)
    return kOk;
  if (!level12<T>().axpy)
    return kExecutionFailed;
  level12<T>().axpy(n, alpha, x, incx, y, incy);
  return kOk;
}
template <class T>
__attribute__((no_sanitize("thread"))) inline int scal(int n, T alpha, T *x,
                                                       int incx) {
  if (n <= 0 || incx <= 0)
    return kOk;
  if (!level12<T>().scal)
    return kExecutionFailed;
  level12<T>().scal(n, alpha, x, incx);
  return kOk;
}
template <class T>
__attribute__((no_sanitize("thread"))) inline int
dot(int n, const T *x, int incx, const T *y, int incy, T *result) {
  if (!result)
    return kInvalidValue;
  if (n <= 0) {
    *result = 0;
    return kOk;
  }
  if (!level12<T>().dot)
    return kExecutionFailed;
  *result = level12<T>().dot(n, x, incx, y, incy);
  return kOk;
}
template <class T>
__attribute__((no_sanitize("thread"))) inline int
norm(bool two, int n, const T *x, int incx, T *result) {
  if (!result)
    return kInvalidValue;
  if (n <= 0 || incx <= 0) {
    *result = 0;
    return kOk;
  }
  auto f = two ? level12<T>().nrm2 : level12<T>().asum;
  if (!f)
    return kExecutionFailed;
  *result = f(n, x, incx);
  return kOk;
}
template <class T>
__attribute__((no_sanitize("thread"))) inline int
copy(int n, const T *x, int incx, T *y, int incy) {
  if (n <= 0)
    return kOk;
  if (!level12<T>().copy)
    return kExecutionFailed;
  level12<T>().copy(n, x, incx, y, incy);
  return kOk;
}

/// cublasSetVector/GetVector (hipBLAS's too): n elements of \p es bytes from
/// x, every incx-th, to y, every incy-th. Host and device memory are one
/// address space here, so both directions are this copy.
__attribute__((no_sanitize("thread"))) inline int
copy_vector(int n, int es, const void *x, int incx, void *y, int incy) {
  if (es <= 0 || incx <= 0 || incy <= 0 || !x || !y)
    return kInvalidValue;
  for (long long i = 0; i < n; ++i)
    std::memcpy((char *)y + i * incy * es, (const char *)x + i * incx * es,
                (std::size_t)es);
  return kOk;
}
/// cublasSetMatrix/GetMatrix: a rows x cols column-major matrix of \p es-byte
/// elements from A (leading dimension lda) to B (ldb).
__attribute__((no_sanitize("thread"))) inline int
copy_matrix(int rows, int cols, int es, const void *A, int lda, void *B,
            int ldb) {
  if (rows < 0 || cols < 0 || es <= 0 || lda <= 0 || ldb <= 0 ||
      lda < rows || ldb < rows || !A || !B)
    return kInvalidValue;
  for (long long j = 0; j < cols; ++j)
    std::memcpy((char *)B + j * ldb * es, (const char *)A + j * lda * es,
                (std::size_t)rows * es);
  return kOk;
}
/// The batched GEMM of pointer arrays (cublasSgemmBatched, ...): one gemm
/// per batch entry; the arrays are read where they lie (device memory).
__attribute__((no_sanitize("thread"))) inline int
gemm_batched(int ta, int tb, int m, int n, int k, double alpha,
             const void *const *A, int at, int lda, const void *const *B,
             int bt, int ldb, double beta, void *const *C, int ct, int ldc,
             int batch) {
  if (batch < 0 || (batch > 0 && (!A || !B || !C)))
    return kInvalidValue;
  for (int b = 0; b < batch; ++b)
    if (int e = gemm(ta, tb, m, n, k, alpha, A[b], at, lda, 0, B[b], bt, ldb,
                     0, beta, C[b], ct, ldc, 0, 1))
      return e;
  return kOk;
}

} // namespace blas
} // namespace pkemu
