// Sparse matrix-vector products y = A x for a CSR matrix: the "vector"
// kernel (a group of THREADS_PER_ROW lanes per row, partial sums combined
// with shuffles) and the "scalar" kernel (one thread per row) it is
// compared against.
#pragma once
#include "cuda_helpers.h"

template <typename T> struct CsrMatrix {
  int rows, cols, nnz;
  int *rowPtr;
  int *colInd;
  T *values;
};

template <typename T>
__global__ void spmvCsrScalar(int rows, const int *__restrict__ rowPtr,
                              const int *__restrict__ colInd, const T *__restrict__ values,
                              const T *__restrict__ x, T *__restrict__ y) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < rows) {
    T sum = 0;
    for (int jj = rowPtr[row]; jj < rowPtr[row + 1]; ++jj)
      sum += values[jj] * x[colInd[jj]];
    y[row] = sum;
  }
}

template <typename T, int THREADS_PER_ROW>
__device__ __forceinline__ T groupReduceSum(T v) {
#pragma unroll
  for (int offset = THREADS_PER_ROW / 2; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffff, v, offset, THREADS_PER_ROW);
  return v;
}

// THREADS_PER_ROW lanes per row (a power of two up to WARP_SIZE).  Rows
// past the end still run the shuffles, with nothing to add, so every lane
// of the warp takes part.
template <typename T, int THREADS_PER_ROW>
__global__ void spmvCsrVector(int rows, const int *__restrict__ rowPtr,
                              const int *__restrict__ colInd, const T *__restrict__ values,
                              const T *__restrict__ x, T *__restrict__ y) {
  const int threadId = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadId & (THREADS_PER_ROW - 1);
  const int row = threadId / THREADS_PER_ROW;
  // The first two lanes of the group read the row's bounds; the group
  // gets them by broadcast (for one thread per row, the thread reads both).
  int bound = 0;
  if (row < rows && lane < 2)
    bound = rowPtr[row + lane];
  int start, end;
  if (THREADS_PER_ROW == 1) {
    start = bound;
    end = row < rows ? rowPtr[row + 1] : 0;
  } else {
    start = __shfl_sync(0xffffffff, bound, 0, THREADS_PER_ROW);
    end = __shfl_sync(0xffffffff, bound, 1, THREADS_PER_ROW);
  }
  T sum = 0;
  for (int jj = start + lane; jj < end; jj += THREADS_PER_ROW)
    sum += values[jj] * x[colInd[jj]];
  sum = groupReduceSum<T, THREADS_PER_ROW>(sum);
  if (row < rows && lane == 0)
    y[row] = sum;
}

template <typename T, int THREADS_PER_ROW>
void spmvVector(const CsrMatrix<T> &A, const T *x, T *y) {
  const int threads = BLOCK_THREADS;
  const int blocks = gridFor(A.rows * THREADS_PER_ROW, threads);
  spmvCsrVector<T, THREADS_PER_ROW><<<blocks, threads>>>(A.rows, A.rowPtr, A.colInd, A.values,
                                                          x, y);
  CUDA_CHECK_LAUNCH();
}
