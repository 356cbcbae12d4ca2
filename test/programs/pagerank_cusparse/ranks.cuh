// Device side of the power iteration: the rank mass of dangling nodes and
// the L1 change between iterates (block reductions over warp shuffles and a
// shared array of warp partials), and the teleport step.
#pragma once
#include <cuda_runtime.h>

#define RANK_THREADS 256

__inline__ __device__ float warpSum(float v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);
  return v;
}

__inline__ __device__ float blockSum(float v) {
  __shared__ float partial[32];
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  v = warpSum(v);
  if (lane == 0) partial[warp] = v;
  __syncthreads();
  v = threadIdx.x < blockDim.x / 32 ? partial[lane] : 0.0f;
  if (warp == 0) v = warpSum(v);
  return v;
}

// sums[0] += rank of nodes without out-links; sums[1] += |x - xold|.
__global__ void rankSums(const float *x, const float *xold, const int *outdeg,
                         int n, float *sums) {
  float dangling = 0.0f, change = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    if (outdeg[i] == 0) dangling += x[i];
    change += fabsf(x[i] - xold[i]);
  }
  dangling = blockSum(dangling);
  __syncthreads();
  change = blockSum(change);
  if (threadIdx.x == 0) {
    atomicAdd(&sums[0], dangling);
    atomicAdd(&sums[1], change);
  }
}

// y = damping * y + (damping * dangling + 1 - damping) * teleport, where
// teleport is uniform (node == -1) or all on one node; one column of a
// column-major block per blockIdx.y.
__global__ void teleportStep(float *y, int ld, int n, float damping,
                             const float *dangling, const int *node) {
  int c = blockIdx.y;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float mass = damping * dangling[c] + 1.0f - damping;
  float t = node[c] < 0 ? 1.0f / n : (i == node[c] ? 1.0f : 0.0f);
  y[c * ld + i] = damping * y[c * ld + i] + mass * t;
}

// Per column of a column-major n x k block: the rank of dangling nodes.
__global__ void danglingColumns(const float *x, int ld, const int *outdeg, int n,
                                float *out) {
  int c = blockIdx.x;
  float s = 0.0f;
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    if (outdeg[i] == 0) s += x[c * ld + i];
  s = blockSum(s);
  if (threadIdx.x == 0) out[c] = s;
}
