// Checks and warp/block reductions shared by the attention kernels.
#pragma once
#include <cfloat>
#include <cstdio>
#include <cstdlib>
#include <cuda_fp16.h>

#define CHECK_CUDA(x)                                                          \
  do {                                                                         \
    cudaError_t e_ = (x);                                                      \
    if (e_ != cudaSuccess) {                                                   \
      fprintf(stderr, "CUDA failure %s at %s:%d: %s\n", #x, __FILE__, __LINE__, \
              cudaGetErrorString(e_));                                         \
      abort();                                                                 \
    }                                                                          \
  } while (0)

#define FULL_MASK 0xffffffffu

template <typename T> struct SumOp {
  __device__ __forceinline__ T operator()(T a, T b) const { return a + b; }
};
template <typename T> struct MaxOp {
  __device__ __forceinline__ T operator()(T a, T b) const { return a > b ? a : b; }
};

// Butterfly reduction: every lane ends with the warp's result.
template <template <typename> class Op, typename T>
__device__ __forceinline__ T warpAllReduce(T val) {
#pragma unroll
  for (int mask = 16; mask > 0; mask >>= 1)
    val = Op<T>()(val, __shfl_xor_sync(FULL_MASK, val, mask));
  return val;
}

// Block-wide all-reduce for BLOCK_SIZE threads: warp butterflies, one slot
// per warp in shared memory, then a butterfly over the slots.
template <template <typename> class Op, typename T, int BLOCK_SIZE>
__device__ __forceinline__ T blockAllReduce(T val, T identity) {
  constexpr int kWarps = BLOCK_SIZE / 32;
  __shared__ T shared[kWarps];
  const int lane = threadIdx.x & 31;
  const int wid = threadIdx.x >> 5;
  val = warpAllReduce<Op, T>(val);
  if (lane == 0)
    shared[wid] = val;
  __syncthreads();
  val = lane < kWarps ? shared[lane] : identity;
  val = warpAllReduce<Op, T>(val);
  __syncthreads(); // shared[] is reused by the next call
  return val;
}

// Loads and stores of the storage type: float, or __half with float math.
__device__ __forceinline__ float toFloat(float v) { return v; }
__device__ __forceinline__ float toFloat(__half v) { return __half2float(v); }
template <typename T> __device__ __forceinline__ T fromFloat(float v);
template <> __device__ __forceinline__ float fromFloat<float>(float v) { return v; }
template <> __device__ __forceinline__ __half fromFloat<__half>(float v) {
  return __float2half(v);
}
