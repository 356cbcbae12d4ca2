//===- sparse.h - sparse BLAS behind the cuSPARSE and hipSPARSE shims -*- C++
//-*-===//
// Rules: none (emulator runtime)
//
// What cuSPARSE and hipSPARSE programs call most: handles and streams, the
// legacy matrix descriptor, the generic API's CSR and COO matrices and dense
// vectors and matrices, SpMV (y = alpha op(A) x + beta y) and SpMM
// (C = alpha op(A) op(B) + beta C), for float and double.  The products are
// computed on the host in issue order, like the emulator's kernels, so the
// result is complete when the call returns.  The loops are compiled with the
// program, so the emulator's device-memory checks see every read of the
// index and value arrays: a row offset or column index outside its buffer is
// reported where the library would read garbage.  Index types, bases,
// operations and element types use the numbers cuSPARSE and hipSPARSE share;
// the shims translate the rest (dense orders, status codes).
//
//===----------------------------------------------------------------------===//
#pragma once
#include <cstddef>
#include <cstdint>

namespace pkemu {
namespace sparse {

enum Status {
  kOk = 0,
  kNotInitialized = 1,
  kInvalidValue = 3,
  kNotSupported = 10
};
enum IndexType { kIdx16U = 1, kIdx32I = 2, kIdx64I = 3 };
enum Elem { kR32F = 0, kR64F = 1 };
enum Op { kN = 0, kT = 1, kC = 2 };

struct Handle {
  void *stream = nullptr;
  int pointer_mode = 0; // alpha/beta are read the same way: device memory is
                        // host memory in the emulator
};
struct MatDescr {
  int type = 0;
  int base = 0;
  int fill = 0;
  int diag = 0;
};
struct SpMat {
  bool coo = false;
  std::int64_t rows = 0, cols = 0, nnz = 0;
  void *offsets = nullptr; // CSR: rows + 1 row offsets; COO: row indices
  void *colind = nullptr;
  void *values = nullptr;
  int offset_type = kIdx32I, index_type = kIdx32I;
  int base = 0;
  int value_type = kR32F;
};
struct DnVec {
  std::int64_t size = 0;
  void *values = nullptr;
  int value_type = kR32F;
};
struct DnMat {
  std::int64_t rows = 0, cols = 0, ld = 0;
  void *values = nullptr;
  int value_type = kR32F;
  bool row_major = false;
};

// What both shims' handle, descriptor and buffer-size calls do, in the
// numbering above; the shims only convert types and statuses.
inline int create_handle(Handle **h) {
  if (!h)
    return kInvalidValue;
  *h = new Handle();
  return kOk;
}
inline int destroy_handle(Handle *h) {
  if (!h)
    return kNotInitialized;
  delete h;
  return kOk;
}
inline int set_stream(Handle *h, void *s) {
  if (!h)
    return kNotInitialized;
  h->stream = s;
  return kOk;
}
inline int get_stream(const Handle *h, void **s) {
  if (!h)
    return kNotInitialized;
  if (!s)
    return kInvalidValue;
  *s = h->stream;
  return kOk;
}
inline int set_pointer_mode(Handle *h, int m) {
  if (!h)
    return kNotInitialized;
  h->pointer_mode = m;
  return kOk;
}
inline int get_pointer_mode(const Handle *h, int *m) {
  if (!h)
    return kNotInitialized;
  if (!m)
    return kInvalidValue;
  *m = h->pointer_mode;
  return kOk;
}
inline int create_mat_descr(MatDescr **d) {
  if (!d)
    return kInvalidValue;
  *d = new MatDescr();
  return kOk;
}
inline int create_dnvec(DnVec **out, std::int64_t size, void *values,
                        int value_type) {
  if (!out || size < 0 || (size > 0 && !values))
    return kInvalidValue;
  *out = new DnVec{size, values, value_type};
  return kOk;
}
/// \p order_ok: the order is one the library defines.
inline int create_dnmat(DnMat **out, std::int64_t rows, std::int64_t cols,
                        std::int64_t ld, void *values, int value_type,
                        bool order_ok, bool row_major) {
  if (!out || rows < 0 || cols < 0 || (rows * cols > 0 && !values) ||
      !order_ok || ld < (row_major ? cols : rows))
    return kInvalidValue;
  *out = new DnMat{rows, cols, ld, values, value_type, row_major};
  return kOk;
}
/// SpMV and SpMM need no external buffer here.
inline int buffer_size(const Handle *h, std::size_t *size) {
  if (!h)
    return kNotInitialized;
  if (!size)
    return kInvalidValue;
  *size = 0;
  return kOk;
}

inline bool index_type_ok(int t) { return t == kIdx32I || t == kIdx64I; }
inline std::int64_t index_at(const void *p, int type, std::int64_t i) {
  return type == kIdx64I ? ((const std::int64_t *)p)[i]
                         : (std::int64_t)((const std::int32_t *)p)[i];
}

inline int create_csr(SpMat **out, std::int64_t rows, std::int64_t cols,
                      std::int64_t nnz, void *offsets, void *colind,
                      void *values, int offset_type, int index_type, int base,
                      int value_type, bool coo) {
  if (!out || rows < 0 || cols < 0 || nnz < 0 ||
      (nnz > 0 && (!colind || !values || !offsets)) ||
      (!coo && rows > 0 && !offsets) || (base != 0 && base != 1))
    return kInvalidValue;
  if (!index_type_ok(offset_type) || !index_type_ok(index_type) ||
      (value_type != kR32F && value_type != kR64F))
    return kNotSupported;
  SpMat *m = new SpMat();
  m->coo = coo;
  m->rows = rows;
  m->cols = cols;
  m->nnz = nnz;
  m->offsets = offsets;
  m->colind = colind;
  m->values = values;
  m->offset_type = offset_type;
  m->index_type = index_type;
  m->base = base;
  m->value_type = value_type;
  *out = m;
  return kOk;
}

/// Calls f(row, col, k) for every stored element k of A (0-based indices).
template <class F> inline void for_each_nz(const SpMat &A, F f) {
  if (A.coo) {
    for (std::int64_t k = 0; k < A.nnz; ++k)
      f(index_at(A.offsets, A.index_type, k) - A.base,
        index_at(A.colind, A.index_type, k) - A.base, k);
    return;
  }
  for (std::int64_t r = 0; r < A.rows; ++r) {
    std::int64_t b = index_at(A.offsets, A.offset_type, r) - A.base;
    std::int64_t e = index_at(A.offsets, A.offset_type, r + 1) - A.base;
    for (std::int64_t k = b; k < e; ++k)
      f(r, index_at(A.colind, A.index_type, k) - A.base, k);
  }
}

template <class T>
inline int spmv_t(int op, T alpha, const SpMat &A, const DnVec &x, T beta,
                  DnVec &y) {
  const std::int64_t m = op == kN ? A.rows : A.cols;
  const std::int64_t n = op == kN ? A.cols : A.rows;
  if (x.size != n || y.size != m)
    return kInvalidValue;
  const T *xv = (const T *)x.values;
  const T *av = (const T *)A.values;
  T *yv = (T *)y.values;
  // beta == 0: y is overwritten, never read (it may hold NaNs).
  for (std::int64_t i = 0; i < m; ++i)
    yv[i] = beta == T(0) ? T(0) : beta * yv[i];
  bool bad = false;
  if (op == kN && !A.coo) {
    for (std::int64_t r = 0; r < A.rows; ++r) {
      std::int64_t b = index_at(A.offsets, A.offset_type, r) - A.base;
      std::int64_t e = index_at(A.offsets, A.offset_type, r + 1) - A.base;
      T acc = T(0);
      for (std::int64_t k = b; k < e; ++k) {
        std::int64_t c = index_at(A.colind, A.index_type, k) - A.base;
        if (c < 0 || c >= A.cols) {
          bad = true;
          continue;
        }
        acc += av[k] * xv[c];
      }
      yv[r] += alpha * acc;
    }
  } else {
    for_each_nz(A, [&](std::int64_t r, std::int64_t c, std::int64_t k) {
      if (r < 0 || r >= A.rows || c < 0 || c >= A.cols) {
        bad = true;
        return;
      }
      if (op == kN)
        yv[r] += alpha * av[k] * xv[c];
      else
        yv[c] += alpha * av[k] * xv[r];
    });
  }
  return bad ? kInvalidValue : kOk;
}

inline int spmv(const Handle *h, int op, const void *alpha, const SpMat *A,
                const DnVec *x, const void *beta, DnVec *y, int compute) {
  if (!h)
    return kNotInitialized;
  if (!alpha || !A || !x || !beta || !y || op < kN || op > kC)
    return kInvalidValue;
  if (A->value_type != x->value_type || A->value_type != y->value_type ||
      compute != A->value_type)
    return kNotSupported;
  if (compute == kR32F)
    return spmv_t<float>(op, *(const float *)alpha, *A, *x,
                         *(const float *)beta, *y);
  return spmv_t<double>(op, *(const double *)alpha, *A, *x,
                        *(const double *)beta, *y);
}

template <class T>
inline T &dn_at(const DnMat &M, std::int64_t i, std::int64_t j) {
  T *v = (T *)M.values;
  return M.row_major ? v[i * M.ld + j] : v[i + j * M.ld];
}

template <class T>
inline int spmm_t(int opa, int opb, T alpha, const SpMat &A, const DnMat &B,
                  T beta, DnMat &C) {
  const std::int64_t m = opa == kN ? A.rows : A.cols;
  const std::int64_t k = opa == kN ? A.cols : A.rows;
  const std::int64_t bk = opb == kN ? B.rows : B.cols;
  const std::int64_t n = opb == kN ? B.cols : B.rows;
  if (bk != k || C.rows != m || C.cols != n)
    return kInvalidValue;
  if (B.ld < (B.row_major ? B.cols : B.rows) ||
      C.ld < (C.row_major ? C.cols : C.rows))
    return kInvalidValue;
  const T *av = (const T *)A.values;
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = 0; j < n; ++j) {
      T &c = dn_at<T>(C, i, j);
      c = beta == T(0) ? T(0) : beta * c;
    }
  bool bad = false;
  for_each_nz(A, [&](std::int64_t r, std::int64_t c, std::int64_t e) {
    if (r < 0 || r >= A.rows || c < 0 || c >= A.cols) {
      bad = true;
      return;
    }
    // op(A)(i, l) = A(r, c) with (i, l) = (r, c) or (c, r).
    std::int64_t i = opa == kN ? r : c, l = opa == kN ? c : r;
    for (std::int64_t j = 0; j < n; ++j) {
      T b = opb == kN ? dn_at<T>(B, l, j) : dn_at<T>(B, j, l);
      dn_at<T>(C, i, j) += alpha * av[e] * b;
    }
  });
  return bad ? kInvalidValue : kOk;
}

inline int spmm(const Handle *h, int opa, int opb, const void *alpha,
                const SpMat *A, const DnMat *B, const void *beta, DnMat *C,
                int compute) {
  if (!h)
    return kNotInitialized;
  if (!alpha || !A || !B || !beta || !C || opa < kN || opa > kC || opb < kN ||
      opb > kC)
    return kInvalidValue;
  if (A->value_type != B->value_type || A->value_type != C->value_type ||
      compute != A->value_type)
    return kNotSupported;
  if (compute == kR32F)
    return spmm_t<float>(opa, opb, *(const float *)alpha, *A, *B,
                         *(const float *)beta, *C);
  return spmm_t<double>(opa, opb, *(const double *)alpha, *A, *B,
                        *(const double *)beta, *C);
}

} // namespace sparse
} // namespace pkemu
