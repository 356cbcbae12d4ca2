// logsumexp_rows: out[row] = log(sum_c exp(x[row][c])), computed stably as
// max + log(sum exp(x - max)); one block per row.
// Idiom: the classic blockReduceSum/blockReduceMax helpers (`static __shared__
// float shared[32]`, __shfl_down_sync with warpSize, the result in thread 0),
// the max broadcast through a __shared__ scalar, out[row] by thread 0.
// EXPECT: lift
#include <cuda_runtime.h>
#include <float.h>

__inline__ __device__ float warpReduceSum(float val) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
    val += __shfl_down_sync(0xffffffff, val, offset);
  return val;
}

__inline__ __device__ float warpReduceMax(float val) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
    val = fmaxf(val, __shfl_down_sync(0xffffffff, val, offset));
  return val;
}

__inline__ __device__ float blockReduceSum(float val) {
  static __shared__ float shared[32];
  int lane = threadIdx.x % warpSize;
  int wid = threadIdx.x / warpSize;
  val = warpReduceSum(val);
  if (lane == 0)
    shared[wid] = val;
  __syncthreads();
  val = (threadIdx.x < blockDim.x / warpSize) ? shared[lane] : 0.0f;
  if (wid == 0)
    val = warpReduceSum(val);
  return val;
}

__inline__ __device__ float blockReduceMax(float val) {
  static __shared__ float shared[32];
  int lane = threadIdx.x % warpSize;
  int wid = threadIdx.x / warpSize;
  val = warpReduceMax(val);
  if (lane == 0)
    shared[wid] = val;
  __syncthreads();
  val = (threadIdx.x < blockDim.x / warpSize) ? shared[lane] : -FLT_MAX;
  if (wid == 0)
    val = warpReduceMax(val);
  return val;
}

__global__ void logsumexp_rows(float *out, const float *x, int rows,
                               int cols) {
  __shared__ float s_max;
  int row = blockIdx.x;
  if (row >= rows)
    return;
  const float *xr = x + row * cols;

  float m = -FLT_MAX;
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    m = fmaxf(m, xr[c]);
  m = blockReduceMax(m);
  if (threadIdx.x == 0)
    s_max = m;
  __syncthreads();
  float rowMax = s_max;

  float s = 0.0f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    s += expf(xr[c] - rowMax);
  s = blockReduceSum(s);
  if (threadIdx.x == 0)
    out[row] = rowMax + logf(s);
}
