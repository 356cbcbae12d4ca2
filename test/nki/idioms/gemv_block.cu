// gemv_block: y[r] = sum_k A[r][k] * x[k] (matrix-vector product).
// Idiom: one block of 128 threads per row, a fixed-size shared array and a
// halving tree with `#pragma unroll`, thread 0 writes y[row].
// EXPECT: lift
#include <cuda_runtime.h>

#define THREADS 128

__global__ void gemv_block(float *y, const float *A, const float *x, int rows,
                           int cols) {
  __shared__ float buf[THREADS];
  int row = blockIdx.x;
  int tid = threadIdx.x;
  if (row >= rows)
    return;
  float sum = 0.0f;
  for (int k = tid; k < cols; k += THREADS)
    sum += A[row * cols + k] * x[k];
  buf[tid] = sum;
  __syncthreads();
#pragma unroll
  for (int s = THREADS / 2; s > 0; s >>= 1) {
    if (tid < s)
      buf[tid] += buf[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    y[row] = buf[0];
}
