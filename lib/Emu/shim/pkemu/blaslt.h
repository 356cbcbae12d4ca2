//===- blaslt.h - the Lt matmul behind the cuBLASLt and hipBLASLt shims -===//
// Rules: none (emulator runtime)
//
// cuBLASLt and hipBLASLt have one matmul path of the same shape: a handle, a
// matmul descriptor (compute and scale types, transposes, an epilogue with
// its bias and auxiliary buffers), matrix layouts (type, rows, columns,
// leading dimension, batch count and stride; column-major here), a
// preference and a heuristic.  Their enumerators differ in value, so each
// shim (cublasLt.h, hipblaslt/hipblaslt.h) keeps its library's values and
// hands this core the meaning: operations in CBLAS numbering, element types
// in library_types.h numbering (shared by CUDA and HIP), epilogue bits as
// both libraries define them (RELU 2, BIAS 4, GELU 32, AUX 128).
//
// matmul computes D = alpha op(A) op(B) + beta C with the CPU BLAS of
// blas.h, then the epilogue per element: + bias[row], the pre-activation to
// the auxiliary buffer (AUX), then ReLU or GELU (tanh approximation).
// Gradient epilogues (DGELU, DRELU, BGRADA, BGRADB) are not emulated: the
// call returns NOT_SUPPORTED, which the program's status check reports.
//
//===----------------------------------------------------------------------===//
#pragma once
#include "blas.h"
#include <cmath>
#include <cstdint>
#include <cstring>

namespace pkemu {
namespace blaslt {

enum EpilogueBits { kRelu = 2, kBias = 4, kGelu = 32, kAux = 128 };

struct Handle {
  int unused;
};
struct Desc {
  int compute = -1; ///< the library's compute-type value (the shim checks it)
  int scale = blas::kR32F;
  int transa = 0, transb = 0; ///< the library's operation values
  int epilogue = 1;
  const void *bias = nullptr;
  int bias_type = -1;
  void *aux = nullptr;
  std::int64_t aux_ld = 0;
};
struct Layout {
  int type = blas::kR32F, order = 0;
  std::uint64_t rows = 0, cols = 0;
  std::int64_t ld = 0, stride = 0;
  int batch = 1;
};
struct Pref {
  std::size_t max_workspace = 0;
};

/// Copies an attribute value of exactly the field's size.
template <class T> inline bool set(T &field, const void *buf, std::size_t n) {
  if (!buf || n != sizeof(T))
    return false;
  std::memcpy(&field, buf, sizeof(T));
  return true;
}
/// Copies an attribute value out; \p written gets its size.
template <class T>
inline bool get(const T &field, void *buf, std::size_t n, std::size_t *written) {
  if (written)
    *written = sizeof(T);
  if (!buf)
    return n == 0 && written;
  if (n < sizeof(T))
    return false;
  std::memcpy(buf, &field, sizeof(T));
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
         std::int64_t ld, void *aux) {
  bool bias = d.epilogue & kBias, relu = d.epilogue & kRelu,
       gelu_ = d.epilogue & kGelu, keep = (d.epilogue & kAux) && aux;
  int bt = d.bias_type >= 0 ? d.bias_type : t;
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < m; ++i) {
      std::size_t at = (std::size_t)(j * ld + i);
      float v = blas::load(D, t, at);
      if (bias)
        v += blas::load(d.bias, bt, (std::size_t)i);
      if (keep)
        blas::store(aux, t, (std::size_t)(j * d.aux_ld + i), v);
      if (relu)
        v = v > 0 ? v : 0;
      if (gelu_)
        v = gelu(v);
      blas::store(D, t, at, v);
    }
}

/// The matmul of both libraries.  \p ta, \p tb: CBLAS operations; \p scalar:
/// the element type alpha and beta are read as.  Returns a blas::Status.
__attribute__((no_sanitize("thread"))) inline int
matmul(const Desc &d, int ta, int tb, const void *alpha, const void *A,
       const Layout &a, const void *B, const Layout &b, const void *beta,
       const void *C, const Layout &c, void *D, const Layout &dd) {
  if (!alpha || !beta)
    return blas::kInvalidValue;
  if (a.order || b.order || c.order || dd.order)
    return blas::kNotSupported;
  const int known = 1 | kRelu | kBias | kGelu | kAux;
  if (d.epilogue & ~known)
    return blas::kNotSupported; // gradient epilogues
  if ((d.epilogue & kBias) && !d.bias)
    return blas::kInvalidValue;
  if ((d.epilogue & kAux) && (!d.aux || d.aux_ld < (std::int64_t)dd.rows))
    return blas::kInvalidValue;
  std::int64_t m = (std::int64_t)dd.rows, n = (std::int64_t)dd.cols;
  std::int64_t k = ta == blas::kN ? (std::int64_t)a.cols : (std::int64_t)a.rows;
  if ((std::int64_t)c.rows != m || (std::int64_t)c.cols != n ||
      c.type != dd.type)
    return blas::kInvalidValue;
  double al = blas::read_scalar(alpha, d.scale),
         be = blas::read_scalar(beta, d.scale);
  std::size_t es = blas::elem_size(dd.type);
  for (int i = 0; i < dd.batch; ++i) {
    const char *Ci = (const char *)C + (std::size_t)(c.stride * i) * es;
    char *Di = (char *)D + (std::size_t)(dd.stride * i) * es;
    if (Ci != Di && be != 0)
      copy_c(Ci, Di, dd.type, m, n, c.ld, dd.ld);
    int s = blas::gemm(
        ta, tb, (int)m, (int)n, (int)k, al,
        (const char *)A + (std::size_t)(a.stride * i) * blas::elem_size(a.type),
        a.type, (int)a.ld, 0,
        (const char *)B + (std::size_t)(b.stride * i) * blas::elem_size(b.type),
        b.type, (int)b.ld, 0, be, Di, dd.type, (int)dd.ld, 0, 1);
    if (s)
      return s;
    if (d.epilogue != 1)
      epilogue(d, Di, dd.type, m, n, dd.ld,
               d.aux ? (char *)d.aux + (std::size_t)(d.aux_ld * n * i) * es
                     : nullptr);
  }
  return blas::kOk;
}

} // namespace blaslt
} // namespace pkemu
