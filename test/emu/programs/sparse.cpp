// The cuSPARSE and hipSPARSE shims against dense products: CSR and COO,
// 32- and 64-bit indices, base zero and one, SpMV with op N and T, SpMM
// with both operand orders and transposes, beta accumulation, and the
// statuses of bad calls.  Prints one line per check and PASS at the end.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>
#if defined(PKEMU_LANG_HIP)
#include <hipsparse/hipsparse.h>
#define SP(x) hipsparse##x
#define SPE(x) HIPSPARSE_##x
#define RT(x) HIP_##x
#define ORDER_COL HIPSPARSE_ORDER_COLUMN
#define dMalloc hipMallocManaged
#else
#include <cusparse.h>
#define SP(x) cusparse##x
#define SPE(x) CUSPARSE_##x
#define RT(x) CUDA_##x
#define ORDER_COL CUSPARSE_ORDER_COL
#define dMalloc cudaMallocManaged
#endif

static int failures = 0;
static void expect(bool ok, const char* what) {
  printf("%s: %s\n", what, ok ? "ok" : "WRONG");
  failures += !ok;
}

// A 5 x 4 matrix with an empty row, stored densely for the reference.
static const int R = 5, C = 4;
static const float dense[R][C] = {{1, 0, 2, 0}, {0, 0, 0, 0}, {0, 3, 0, 4}, {5, 0, 0, 6}, {0, 7, 8, 0}};

template <class I>
static void build(std::vector<I>& off, std::vector<I>& rowi, std::vector<I>& col, std::vector<float>& val,
                  int base) {
  off.assign(1, (I)base);
  for (int r = 0; r < R; ++r) {
    for (int c = 0; c < C; ++c)
      if (dense[r][c] != 0) {
        rowi.push_back((I)(r + base));
        col.push_back((I)(c + base));
        val.push_back(dense[r][c]);
      }
    off.push_back((I)(col.size() + base));
  }
}

template <class T> static T* dev(const std::vector<T>& h) {
  T* p;
  dMalloc((void**)&p, h.size() * sizeof(T));
  for (size_t i = 0; i < h.size(); ++i) p[i] = h[i];
  return p;
}

int main() {
  SP(Handle_t) h;
  expect(SP(Create)(&h) == SPE(STATUS_SUCCESS), "create");
  std::vector<int> off32, row32, col32;
  std::vector<int64_t> off64, row64, col64;
  std::vector<float> val32, val64;
  build(off32, row32, col32, val32, 0);
  build(off64, row64, col64, val64, 1);
  const int nnz = (int)val32.size();
  SP(SpMatDescr_t) csr, coo;
  expect(SP(CreateCsr)(&csr, R, C, nnz, dev(off32), dev(col32), dev(val32), SPE(INDEX_32I), SPE(INDEX_32I),
                       SPE(INDEX_BASE_ZERO), RT(R_32F)) == SPE(STATUS_SUCCESS),
         "csr 32-bit base 0");
  expect(SP(CreateCoo)(&coo, R, C, nnz, dev(row64), dev(col64), dev(val64), SPE(INDEX_64I), SPE(INDEX_BASE_ONE),
                       RT(R_32F)) == SPE(STATUS_SUCCESS),
         "coo 64-bit base 1");
  float* x = dev(std::vector<float>{1, 2, 3, 4, 5});
  float* y = dev(std::vector<float>{10, 20, 30, 40, 50});
  SP(DnVecDescr_t) x4, x5, y5, y4;
  SP(CreateDnVec)(&x4, C, x, RT(R_32F));
  SP(CreateDnVec)(&x5, R, x, RT(R_32F));
  SP(CreateDnVec)(&y5, R, y, RT(R_32F));
  SP(CreateDnVec)(&y4, C, y, RT(R_32F));
  const float alpha = 2.0f, beta = 0.5f, zero = 0.0f;
  for (int m = 0; m < 2; ++m) {
    SP(SpMatDescr_t) A = m ? coo : csr;
    // y5 = 2 A x4 + 0.5 y5
    float yr[R];
    for (int r = 0; r < R; ++r) {
      float s = 0;
      for (int c = 0; c < C; ++c) s += dense[r][c] * x[c];
      yr[r] = alpha * s + beta * y[r];
    }
    int st = SP(SpMV)(h, SPE(OPERATION_NON_TRANSPOSE), &alpha, A, x4, &beta, y5, RT(R_32F), SPE(SPMV_ALG_DEFAULT),
                      nullptr);
    bool ok = st == SPE(STATUS_SUCCESS);
    for (int r = 0; r < R; ++r) ok &= y[r] == yr[r];
    expect(ok, m ? "coo spmv N" : "csr spmv N");
    // y4 = A^T x5 (beta 0: y is not read)
    for (int c = 0; c < C; ++c) y[c] = NAN;
    st = SP(SpMV)(h, SPE(OPERATION_TRANSPOSE), &alpha, A, x5, &zero, y4, RT(R_32F), SPE(SPMV_ALG_DEFAULT), nullptr);
    ok = st == SPE(STATUS_SUCCESS);
    for (int c = 0; c < C; ++c) {
      float s = 0;
      for (int r = 0; r < R; ++r) s += dense[r][c] * x[r];
      ok &= y[c] == alpha * s;
    }
    expect(ok, m ? "coo spmv T, beta 0 over NaN" : "csr spmv T, beta 0 over NaN");
    for (int r = 0; r < R; ++r) y[r] = 10.0f * (r + 1);
  }
  // SpMM: C (5 x 3, row-major, ld 4) = A B with B (4 x 3, column-major, ld 5);
  // then C2 (4 x 3, column-major) = A^T D^T with D (3 x 5, row-major).
  std::vector<float> hb(5 * 3), hd(3 * 5);
  for (int i = 0; i < 15; ++i) hb[i] = (float)(i % 7) - 2.0f, hd[i] = (float)(i % 5) + 0.5f;
  float *B = dev(hb), *D = dev(hd), *Cm = dev(std::vector<float>(5 * 4, 1.0f)), *C2 = dev(std::vector<float>(4 * 3, 0.0f));
  SP(DnMatDescr_t) mb, mc, md, mc2;
  SP(CreateDnMat)(&mb, C, 3, 5, B, RT(R_32F), ORDER_COL);
  SP(CreateDnMat)(&mc, R, 3, 4, Cm, RT(R_32F), SPE(ORDER_ROW));
  SP(CreateDnMat)(&md, 3, R, 5, D, RT(R_32F), SPE(ORDER_ROW));
  SP(CreateDnMat)(&mc2, C, 3, C, C2, RT(R_32F), ORDER_COL);
  int st = SP(SpMM)(h, SPE(OPERATION_NON_TRANSPOSE), SPE(OPERATION_NON_TRANSPOSE), &alpha, csr, mb, &beta, mc, RT(R_32F),
                    SPE(SPMM_ALG_DEFAULT), nullptr);
  bool ok = st == SPE(STATUS_SUCCESS);
  for (int r = 0; r < R; ++r)
    for (int j = 0; j < 3; ++j) {
      float s = 0;
      for (int k = 0; k < C; ++k) s += dense[r][k] * hb[k + j * 5];
      ok &= Cm[r * 4 + j] == alpha * s + beta * 1.0f;
    }
  expect(ok, "spmm N N, row-major C with ld");
  st = SP(SpMM)(h, SPE(OPERATION_TRANSPOSE), SPE(OPERATION_TRANSPOSE), &alpha, coo, md, &zero, mc2, RT(R_32F),
                SPE(SPMM_ALG_DEFAULT), nullptr);
  ok = st == SPE(STATUS_SUCCESS);
  for (int c = 0; c < C; ++c)
    for (int j = 0; j < 3; ++j) {
      float s = 0;
      for (int k = 0; k < R; ++k) s += dense[k][c] * hd[j * 5 + k];
      ok &= C2[c + j * C] == alpha * s;
    }
  expect(ok, "spmm T T, coo");
  // Bad calls.
  expect(SP(SpMV)(h, SPE(OPERATION_NON_TRANSPOSE), &alpha, csr, x5, &beta, y5, RT(R_32F), SPE(SPMV_ALG_DEFAULT),
                  nullptr) == SPE(STATUS_INVALID_VALUE),
         "spmv with a vector of the wrong size: invalid value");
  expect(SP(SpMV)(h, SPE(OPERATION_NON_TRANSPOSE), &alpha, csr, x4, &beta, y5, RT(R_64F), SPE(SPMV_ALG_DEFAULT),
                  nullptr) == SPE(STATUS_NOT_SUPPORTED),
         "spmv computing in double on float data: not supported");
  SP(SpMatDescr_t) bad;
  expect(SP(CreateCsr)(&bad, R, C, nnz, dev(off32), dev(col32), dev(val32), SPE(INDEX_16U), SPE(INDEX_32I),
                       SPE(INDEX_BASE_ZERO), RT(R_32F)) == SPE(STATUS_NOT_SUPPORTED),
         "16-bit offsets: not supported");
  // A column index past the matrix: the call fails instead of reading past x.
  std::vector<int> badcol = col32;
  badcol[2] = 9;
  SP(CreateCsr)(&bad, R, C, nnz, dev(off32), dev(badcol), dev(val32), SPE(INDEX_32I), SPE(INDEX_32I),
                SPE(INDEX_BASE_ZERO), RT(R_32F));
  expect(SP(SpMV)(h, SPE(OPERATION_NON_TRANSPOSE), &alpha, bad, x4, &beta, y5, RT(R_32F), SPE(SPMV_ALG_DEFAULT),
                  nullptr) == SPE(STATUS_INVALID_VALUE),
         "column index out of range: invalid value");
  SP(DestroySpMat)(csr);
  SP(DestroySpMat)(coo);
  SP(DestroySpMat)(bad);
  SP(DestroyDnVec)(x4);
  SP(DestroyDnMat)(mb);
  expect(SP(Destroy)(h) == SPE(STATUS_SUCCESS), "destroy");
  printf("%s\n", failures ? "FAIL" : "PASS");
  return failures != 0;
}
