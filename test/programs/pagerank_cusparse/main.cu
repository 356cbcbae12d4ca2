// PageRank by power iteration with cuSPARSE: the transition matrix in CSR,
// multiplied with SpMV both as P x (rows by destination) and as (P^T)^T x
// (rows by source, CUSPARSE_OPERATION_TRANSPOSE), and four personalised
// rankings at once with SpMM on a column-major block; dangling mass and
// convergence from shuffle reductions.  Checked against a host iteration in
// double.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <cusparse.h>
#include <vector>

#include "graph.h"
#include "ranks.cuh"

#define CHECK_CUDA(call)                                                        \
  do {                                                                          \
    cudaError_t e_ = (call);                                                    \
    if (e_ != cudaSuccess) {                                                    \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
      exit(1);                                                                  \
    }                                                                           \
  } while (0)
#define CHECK_SPARSE(call)                                                      \
  do {                                                                          \
    cusparseStatus_t s_ = (call);                                               \
    if (s_ != CUSPARSE_STATUS_SUCCESS) {                                        \
      fprintf(stderr, "%s:%d: cuSPARSE status %d\n", __FILE__, __LINE__, (int)s_); \
      exit(1);                                                                  \
    }                                                                           \
  } while (0)

static const float kDamping = 0.85f;
static const int kCols = 4;

struct DeviceCsr {
  int *offsets = nullptr, *cols = nullptr;
  float *values = nullptr;
  cusparseSpMatDescr_t descr = nullptr;
};

static DeviceCsr upload(const Csr &m) {
  DeviceCsr d;
  CHECK_CUDA(cudaMalloc((void **)&d.offsets, (m.rows + 1) * sizeof(int)));
  CHECK_CUDA(cudaMalloc((void **)&d.cols, m.nnz() * sizeof(int)));
  CHECK_CUDA(cudaMalloc((void **)&d.values, m.nnz() * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(d.offsets, m.offsets.data(), (m.rows + 1) * sizeof(int),
                        cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d.cols, m.cols_idx.data(), m.nnz() * sizeof(int),
                        cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d.values, m.values.data(), m.nnz() * sizeof(float),
                        cudaMemcpyHostToDevice));
  CHECK_SPARSE(cusparseCreateCsr(&d.descr, m.rows, m.cols, m.nnz(), d.offsets, d.cols,
                                 d.values, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                 CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
  return d;
}

// Host power iteration in double; node < 0: uniform teleport.
static std::vector<double> hostRank(const Graph &g, int node, int iters) {
  int n = g.n;
  std::vector<double> x(n, node < 0 ? 1.0 / n : 0.0), y(n);
  if (node >= 0) x[node] = 1.0;
  for (int it = 0; it < iters; ++it) {
    double dangling = 0.0;
    for (int v = 0; v < n; ++v)
      if (g.outdeg[v] == 0) dangling += x[v];
    std::fill(y.begin(), y.end(), 0.0);
    for (auto &e : g.edges) y[e.second] += x[e.first] / g.outdeg[e.first];
    double mass = kDamping * dangling + 1.0 - kDamping;
    for (int v = 0; v < n; ++v)
      y[v] = kDamping * y[v] + mass * (node < 0 ? 1.0 / n : (v == node ? 1.0 : 0.0));
    x.swap(y);
  }
  return x;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 3000;
  const int iters = 40;
  Graph g = makeGraph(n, 2024u);
  Csr byDst = transitionCsr(g, true), bySrc = transitionCsr(g, false);
  printf("graph: %d nodes, %d links\n", n, byDst.nnz());

  cusparseHandle_t handle;
  CHECK_SPARSE(cusparseCreate(&handle));
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreate(&stream));
  CHECK_SPARSE(cusparseSetStream(handle, stream));
  CHECK_SPARSE(cusparseSetPointerMode(handle, CUSPARSE_POINTER_MODE_HOST));
  DeviceCsr P = upload(byDst), PT = upload(bySrc);

  int *outdeg;
  float *x, *y, *sums;
  int *uniform;
  CHECK_CUDA(cudaMalloc((void **)&outdeg, n * sizeof(int)));
  CHECK_CUDA(cudaMalloc((void **)&x, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc((void **)&y, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc((void **)&sums, 2 * sizeof(float)));
  CHECK_CUDA(cudaMalloc((void **)&uniform, sizeof(int)));
  CHECK_CUDA(cudaMemcpy(outdeg, g.outdeg.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  int minus1 = -1;
  CHECK_CUDA(cudaMemcpy(uniform, &minus1, sizeof(int), cudaMemcpyHostToDevice));

  cusparseDnVecDescr_t vx, vy;
  CHECK_SPARSE(cusparseCreateDnVec(&vx, n, x, CUDA_R_32F));
  CHECK_SPARSE(cusparseCreateDnVec(&vy, n, y, CUDA_R_32F));
  const float one = 1.0f, zero = 0.0f;

  int failures = 0;
  std::vector<double> ref = hostRank(g, -1, iters);
  // The same ranking twice: y = P x, and y = (P^T)^T x.
  for (int variant = 0; variant < 2; ++variant) {
    std::vector<float> h(n, 1.0f / n);
    CHECK_CUDA(cudaMemcpy(x, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    cusparseOperation_t op =
        variant == 0 ? CUSPARSE_OPERATION_NON_TRANSPOSE : CUSPARSE_OPERATION_TRANSPOSE;
    cusparseSpMatDescr_t A = variant == 0 ? P.descr : PT.descr;
    size_t bytes = 0;
    CHECK_SPARSE(cusparseSpMV_bufferSize(handle, op, &one, A, vx, &zero, vy, CUDA_R_32F,
                                         CUSPARSE_SPMV_ALG_DEFAULT, &bytes));
    void *buffer = nullptr;
    if (bytes) CHECK_CUDA(cudaMalloc(&buffer, bytes));
    float change = 0.0f;
    for (int it = 0; it < iters; ++it) {
      CHECK_CUDA(cudaMemsetAsync(sums, 0, 2 * sizeof(float), stream));
      CHECK_SPARSE(cusparseSpMV(handle, op, &one, A, vx, &zero, vy, CUDA_R_32F,
                                CUSPARSE_SPMV_ALG_DEFAULT, buffer));
      // Dangling mass of the current iterate (its change is not used here).
      rankSums<<<8, RANK_THREADS, 0, stream>>>(x, x, outdeg, n, sums);
      teleportStep<<<dim3((n + 127) / 128, 1), 128, 0, stream>>>(y, n, n, kDamping, sums,
                                                                 uniform);
      CHECK_CUDA(cudaMemsetAsync(sums, 0, 2 * sizeof(float), stream));
      rankSums<<<8, RANK_THREADS, 0, stream>>>(y, x, outdeg, n, sums);
      CHECK_CUDA(cudaMemcpyAsync(x, y, n * sizeof(float), cudaMemcpyDeviceToDevice, stream));
      float hs[2];
      CHECK_CUDA(cudaMemcpyAsync(hs, sums, sizeof hs, cudaMemcpyDeviceToHost, stream));
      CHECK_CUDA(cudaStreamSynchronize(stream));
      change = hs[1];
    }
    std::vector<float> r(n);
    CHECK_CUDA(cudaMemcpy(r.data(), x, n * sizeof(float), cudaMemcpyDeviceToHost));
    double err = 0.0, total = 0.0;
    for (int v = 0; v < n; ++v) {
      err = fmax(err, fabs(r[v] - ref[v]));
      total += r[v];
    }
    bool ok = err < 2e-6 && fabs(total - 1.0) < 1e-4 && change < 1e-3;
    printf("spmv %s: max error %.2e, sum %.6f, last change %.2e %s\n",
           variant == 0 ? "P x" : "P^T^T x", err, total, change, ok ? "ok" : "WRONG");
    failures += !ok;
    if (buffer) CHECK_CUDA(cudaFree(buffer));
  }

  // Four personalised rankings at once: teleport to nodes 0, 7, 14 and 21.
  int nodes[kCols] = {0, 7, 14, 21};
  int *dnodes;
  float *X, *Y, *dang;
  CHECK_CUDA(cudaMalloc((void **)&dnodes, sizeof nodes));
  CHECK_CUDA(cudaMalloc((void **)&X, (size_t)n * kCols * sizeof(float)));
  CHECK_CUDA(cudaMalloc((void **)&Y, (size_t)n * kCols * sizeof(float)));
  CHECK_CUDA(cudaMalloc((void **)&dang, kCols * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(dnodes, nodes, sizeof nodes, cudaMemcpyHostToDevice));
  std::vector<float> hX((size_t)n * kCols, 0.0f);
  for (int c = 0; c < kCols; ++c) hX[(size_t)c * n + nodes[c]] = 1.0f;
  CHECK_CUDA(cudaMemcpy(X, hX.data(), hX.size() * sizeof(float), cudaMemcpyHostToDevice));
  cusparseDnMatDescr_t mX, mY;
  CHECK_SPARSE(cusparseCreateDnMat(&mX, n, kCols, n, X, CUDA_R_32F, CUSPARSE_ORDER_COL));
  CHECK_SPARSE(cusparseCreateDnMat(&mY, n, kCols, n, Y, CUDA_R_32F, CUSPARSE_ORDER_COL));
  size_t mmBytes = 0;
  CHECK_SPARSE(cusparseSpMM_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                       CUSPARSE_OPERATION_NON_TRANSPOSE, &one, P.descr, mX,
                                       &zero, mY, CUDA_R_32F, CUSPARSE_SPMM_ALG_DEFAULT,
                                       &mmBytes));
  void *mmBuffer = nullptr;
  if (mmBytes) CHECK_CUDA(cudaMalloc(&mmBuffer, mmBytes));
  for (int it = 0; it < iters; ++it) {
    danglingColumns<<<kCols, RANK_THREADS, 0, stream>>>(X, n, outdeg, n, dang);
    CHECK_SPARSE(cusparseSpMM(handle, CUSPARSE_OPERATION_NON_TRANSPOSE,
                              CUSPARSE_OPERATION_NON_TRANSPOSE, &one, P.descr, mX, &zero, mY,
                              CUDA_R_32F, CUSPARSE_SPMM_ALG_DEFAULT, mmBuffer));
    teleportStep<<<dim3((n + 127) / 128, kCols), 128, 0, stream>>>(Y, n, n, kDamping, dang,
                                                                   dnodes);
    CHECK_CUDA(cudaMemcpyAsync(X, Y, (size_t)n * kCols * sizeof(float),
                               cudaMemcpyDeviceToDevice, stream));
  }
  CHECK_CUDA(cudaStreamSynchronize(stream));
  CHECK_CUDA(cudaMemcpy(hX.data(), X, hX.size() * sizeof(float), cudaMemcpyDeviceToHost));
  for (int c = 0; c < kCols; ++c) {
    std::vector<double> pr = hostRank(g, nodes[c], iters);
    double err = 0.0;
    for (int v = 0; v < n; ++v) err = fmax(err, fabs(hX[(size_t)c * n + v] - pr[v]));
    bool ok = err < 2e-5;
    printf("spmm column %d (teleport to %d): max error %.2e %s\n", c, nodes[c], err,
           ok ? "ok" : "WRONG");
    failures += !ok;
  }

  CHECK_SPARSE(cusparseDestroyDnMat(mX));
  CHECK_SPARSE(cusparseDestroyDnMat(mY));
  CHECK_SPARSE(cusparseDestroyDnVec(vx));
  CHECK_SPARSE(cusparseDestroyDnVec(vy));
  CHECK_SPARSE(cusparseDestroySpMat(P.descr));
  CHECK_SPARSE(cusparseDestroySpMat(PT.descr));
  CHECK_SPARSE(cusparseDestroy(handle));
  CHECK_CUDA(cudaStreamDestroy(stream));
  printf("%s\n", failures ? "FAIL" : "PASS");
  return failures ? 1 : 0;
}
