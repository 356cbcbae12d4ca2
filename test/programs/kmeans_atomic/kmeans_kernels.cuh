// Lloyd's k-means on the device: the assignment step (centroids staged in
// shared memory), the accumulation step (per-block partial sums in shared
// memory, flushed with float atomicAdd) and the centroid update.
#pragma once
#include "kmeans_util.h"

template <int D>
__device__ __forceinline__ float squaredDistance(const float *x, int n, int i,
                                                 const float *centroid) {
  float s = 0.0f;
#pragma unroll
  for (int d = 0; d < D; ++d) {
    float diff = x[d * n + i] - centroid[d];
    s += diff * diff;
  }
  return s;
}

template <int D>
__global__ void assignClusters(const float *__restrict__ x, const float *__restrict__ centroids,
                               int *__restrict__ labels, int *__restrict__ changed, int n, int k) {
  __shared__ float sCentroids[kMaxClusters * D];
  for (int t = threadIdx.x; t < k * D; t += blockDim.x)
    sCentroids[t] = centroids[t];
  __syncthreads();

  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int best = 0;
  float bestDist = squaredDistance<D>(x, n, i, sCentroids);
  for (int c = 1; c < k; ++c) {
    float dist = squaredDistance<D>(x, n, i, sCentroids + c * D);
    if (dist < bestDist) {
      bestDist = dist;
      best = c;
    }
  }
  if (labels[i] != best) {
    labels[i] = best;
    atomicAdd(changed, 1);
  }
}

// sums[c * D + d] += x of the points labelled c; counts[c] += their number.
template <int D>
__global__ void accumulateClusters(const float *__restrict__ x, const int *__restrict__ labels,
                                   float *sums, int *counts, int n, int k) {
  __shared__ float sSums[kMaxClusters * D];
  __shared__ int sCounts[kMaxClusters];
  for (int t = threadIdx.x; t < k * D; t += blockDim.x)
    sSums[t] = 0.0f;
  for (int t = threadIdx.x; t < k; t += blockDim.x)
    sCounts[t] = 0;
  __syncthreads();

  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    const int c = labels[i];
#pragma unroll
    for (int d = 0; d < D; ++d)
      atomicAdd(&sSums[c * D + d], x[d * n + i]);
    atomicAdd(&sCounts[c], 1);
  }
  __syncthreads();

  for (int t = threadIdx.x; t < k * D; t += blockDim.x)
    atomicAdd(&sums[t], sSums[t]);
  for (int t = threadIdx.x; t < k; t += blockDim.x)
    atomicAdd(&counts[t], sCounts[t]);
}

// New centroids; an empty cluster keeps its old centroid.
template <int D>
__global__ void updateCentroids(float *centroids, const float *sums, const int *counts, int k) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= k * D)
    return;
  const int c = t / D;
  if (counts[c] > 0)
    centroids[t] = sums[t] / (float)counts[c];
}

// Within-cluster sum of squares (the k-means objective), reduced in the
// style of the classic reduction samples: a grid-stride loop adding two
// elements per step, a shared-memory tree down to 64 values, then the first
// warp finishes with shuffles.  BLOCK is a power of two >= 64.
template <int D>
__device__ __forceinline__ float pointCost(const float *x, const float *centroids,
                                           const int *labels, int n, int i) {
  return squaredDistance<D>(x, n, i, centroids + labels[i] * D);
}

template <int D, unsigned int BLOCK, bool N_IS_POW2>
__global__ void inertiaReduce(const float *__restrict__ x, const float *__restrict__ centroids,
                              const int *__restrict__ labels, float *__restrict__ blockCost,
                              unsigned int n) {
  extern __shared__ float sdata[];
  const unsigned int tid = threadIdx.x;
  const unsigned int gridSize = BLOCK * 2 * gridDim.x;
  unsigned int i = blockIdx.x * BLOCK * 2 + threadIdx.x;
  float mySum = 0.0f;
  while (i < n) {
    mySum += pointCost<D>(x, centroids, labels, n, i);
    // With n a power of two the second element is always in range.
    if (N_IS_POW2 || i + BLOCK < n)
      mySum += pointCost<D>(x, centroids, labels, n, i + BLOCK);
    i += gridSize;
  }
  sdata[tid] = mySum;
  __syncthreads();

  if (BLOCK >= 512 && tid < 256)
    sdata[tid] = mySum = mySum + sdata[tid + 256];
  __syncthreads();
  if (BLOCK >= 256 && tid < 128)
    sdata[tid] = mySum = mySum + sdata[tid + 128];
  __syncthreads();
  if (BLOCK >= 128 && tid < 64)
    sdata[tid] = mySum = mySum + sdata[tid + 64];
  __syncthreads();

  if (tid < 32) {
    if (BLOCK >= 64)
      mySum += sdata[tid + 32];
    for (int offset = 32 / 2; offset > 0; offset /= 2)
      mySum += __shfl_down_sync(0xffffffff, mySum, offset);
  }
  if (tid == 0)
    blockCost[blockIdx.x] = mySum;
}
