// Level-1 kernels of the conjugate-gradient solver: a dot product reduced
// per warp with shuffles, per block through shared memory and across blocks
// with atomicAdd, and the vector updates.
#pragma once
#include "cuda_helpers.h"

// Double-precision atomicAdd is native from compute capability 6.0; older
// devices get the compare-and-swap loop of the programming guide.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 600
__device__ double atomicAdd(double *address, double val) {
  unsigned long long int *address_as_ull = (unsigned long long int *)address;
  unsigned long long int old = *address_as_ull, assumed;
  do {
    assumed = old;
    old = atomicCAS(address_as_ull, assumed,
                    __double_as_longlong(val + __longlong_as_double(assumed)));
  } while (assumed != old);
  return __longlong_as_double(old);
}
#endif

template <typename T> __device__ __forceinline__ T warpSumT(T v) {
  for (int offset = WARP_SIZE / 2; offset > 0; offset >>= 1)
    v += __shfl_xor_sync(0xffffffff, v, offset);
  return v;
}

// ||r||^2 accumulated in double, for the solver's final residual check.
__global__ void squaredNormDouble(const float *__restrict__ r, int n, double *result) {
  double sum = 0.0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    sum += (double)r[i] * (double)r[i];
  sum = warpSumT(sum);
  if (threadIdx.x % WARP_SIZE == 0)
    atomicAdd(result, sum);
}

__device__ __forceinline__ float warpSum(float v) {
  for (int offset = WARP_SIZE / 2; offset > 0; offset >>= 1)
    v += __shfl_xor_sync(0xffffffff, v, offset);
  return v;
}

// Block partial of sum_i a[i] * b[i]: per-warp shuffles, per-warp slots in
// shared memory, the first warp adds the slots.
__device__ float blockDotPartial(const float *__restrict__ a, const float *__restrict__ b,
                                 int n) {
  __shared__ float warpSums[BLOCK_THREADS / WARP_SIZE];
  float sum = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    sum += a[i] * b[i];
  sum = warpSum(sum);
  const int lane = threadIdx.x % WARP_SIZE, warp = threadIdx.x / WARP_SIZE;
  if (lane == 0)
    warpSums[warp] = sum;
  __syncthreads();
  if (warp == 0) {
    sum = lane < BLOCK_THREADS / WARP_SIZE ? warpSums[lane] : 0.0f;
    sum = warpSum(sum);
  }
  return sum; // valid in thread 0
}

// *result += sum_i a[i] * b[i]; *result must be zeroed before the launch.
__global__ void dotKernel(const float *__restrict__ a, const float *__restrict__ b, int n,
                          float *result) {
  float sum = blockDotPartial(a, b, n);
  if (threadIdx.x == 0)
    atomicAdd(result, sum);
}

// The same dot product in one launch without float atomics: every block
// writes its partial, and the last block to finish (counted with a fence
// and an atomic ticket) adds the partials in a fixed order, so the result
// does not depend on the order in which blocks finish.
__device__ unsigned int retirementCount = 0;

__global__ void dotKernelSinglePass(const float *__restrict__ a, const float *__restrict__ b,
                                    int n, volatile float *partials, float *result) {
  __shared__ bool amLast;
  float sum = blockDotPartial(a, b, n);
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = sum;
    __threadfence(); // the partial is visible before the ticket is taken
    unsigned int ticket = atomicAdd(&retirementCount, 1u);
    amLast = (ticket == gridDim.x - 1);
  }
  __syncthreads();
  if (amLast) {
    float total = 0.0f;
    for (int i = threadIdx.x; i < gridDim.x; i += blockDim.x)
      total += partials[i];
    total = warpSum(total); // gridDim.x <= WARP_SIZE partials: the first warp has them all
    if (threadIdx.x == 0) {
      *result = total;
      retirementCount = 0; // ready for the next launch
    }
  }
}

// y = a * x + y
__global__ void axpy(int n, float a, const float *__restrict__ x, float *__restrict__ y) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] += a * x[i];
}

// p = r + beta * p
__global__ void xpby(int n, const float *__restrict__ r, float beta, float *__restrict__ p) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = r[i] + beta * p[i];
}
