// Bitonic sorting network on (key, value) pairs.  Arrays are padded to a
// power of two; chunks of SHARED_SIZE_LIMIT are sorted in shared memory, the
// larger merge strides run from global memory, the smaller ones again in
// shared memory.
#pragma once
#include "sort_common.h"

template <typename K, typename V>
__device__ inline void compareExchange(K &keyA, V &valA, K &keyB, V &valB, uint dir) {
  if ((keyA > keyB) == dir) {
    K k = keyA;
    keyA = keyB;
    keyB = k;
    V v = valA;
    valA = valB;
    valB = v;
  }
}

// Sorts each chunk of SHARED_SIZE_LIMIT elements into a bitonic order that
// alternates direction between chunks (ready for the global merges).
template <typename K, typename V>
__global__ void __launch_bounds__(SORT_THREADS)
    bitonicSortShared(K *dstKey, V *dstVal, const K *srcKey, const V *srcVal, uint dir) {
  __shared__ K sKey[SHARED_SIZE_LIMIT];
  __shared__ V sVal[SHARED_SIZE_LIMIT];
  const uint base = blockIdx.x * SHARED_SIZE_LIMIT;
  sKey[threadIdx.x] = srcKey[base + threadIdx.x];
  sVal[threadIdx.x] = srcVal[base + threadIdx.x];
  sKey[threadIdx.x + SHARED_SIZE_LIMIT / 2] = srcKey[base + threadIdx.x + SHARED_SIZE_LIMIT / 2];
  sVal[threadIdx.x + SHARED_SIZE_LIMIT / 2] = srcVal[base + threadIdx.x + SHARED_SIZE_LIMIT / 2];

  for (uint size = 2; size < SHARED_SIZE_LIMIT; size <<= 1) {
    uint ddd = dir ^ ((threadIdx.x & (size / 2)) != 0);
    for (uint stride = size / 2; stride > 0; stride >>= 1) {
      __syncthreads();
      uint pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
      compareExchange(sKey[pos], sVal[pos], sKey[pos + stride], sVal[pos + stride], ddd);
    }
  }
  // The last stage: direction alternates with the chunk (odd chunks flip).
  {
    uint ddd = dir ^ (blockIdx.x & 1);
    for (uint stride = SHARED_SIZE_LIMIT / 2; stride > 0; stride >>= 1) {
      __syncthreads();
      uint pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
      compareExchange(sKey[pos], sVal[pos], sKey[pos + stride], sVal[pos + stride], ddd);
    }
  }
  __syncthreads();
  dstKey[base + threadIdx.x] = sKey[threadIdx.x];
  dstVal[base + threadIdx.x] = sVal[threadIdx.x];
  dstKey[base + threadIdx.x + SHARED_SIZE_LIMIT / 2] = sKey[threadIdx.x + SHARED_SIZE_LIMIT / 2];
  dstVal[base + threadIdx.x + SHARED_SIZE_LIMIT / 2] = sVal[threadIdx.x + SHARED_SIZE_LIMIT / 2];
}

// One merge step with a stride too large for shared memory: each thread
// owns one comparator.
template <typename K, typename V>
__global__ void bitonicMergeGlobal(K *key, V *val, uint arrayLength, uint size, uint stride,
                                   uint dir) {
  const uint gid = blockIdx.x * blockDim.x + threadIdx.x;
  if (gid >= arrayLength / 2)
    return;
  const uint comparatorI = gid & (arrayLength / 2 - 1);
  // Direction of this comparator's bitonic sequence.
  const uint ddd = dir ^ ((comparatorI & (size / 2)) != 0);
  const uint pos = 2 * gid - (gid & (stride - 1));
  K keyA = key[pos], keyB = key[pos + stride];
  V valA = val[pos], valB = val[pos + stride];
  compareExchange(keyA, valA, keyB, valB, ddd);
  key[pos] = keyA;
  key[pos + stride] = keyB;
  val[pos] = valA;
  val[pos + stride] = valB;
}

// The merge steps of one size whose strides fit in a chunk: all of them in
// shared memory in one launch.
template <typename K, typename V>
__global__ void __launch_bounds__(SORT_THREADS)
    bitonicMergeShared(K *key, V *val, uint arrayLength, uint size, uint dir) {
  __shared__ K sKey[SHARED_SIZE_LIMIT];
  __shared__ V sVal[SHARED_SIZE_LIMIT];
  const uint base = blockIdx.x * SHARED_SIZE_LIMIT;
  sKey[threadIdx.x] = key[base + threadIdx.x];
  sVal[threadIdx.x] = val[base + threadIdx.x];
  sKey[threadIdx.x + SHARED_SIZE_LIMIT / 2] = key[base + threadIdx.x + SHARED_SIZE_LIMIT / 2];
  sVal[threadIdx.x + SHARED_SIZE_LIMIT / 2] = val[base + threadIdx.x + SHARED_SIZE_LIMIT / 2];

  const uint comparatorI = (blockIdx.x * blockDim.x + threadIdx.x) & (arrayLength / 2 - 1);
  const uint ddd = dir ^ ((comparatorI & (size / 2)) != 0);
  for (uint stride = SHARED_SIZE_LIMIT / 2; stride > 0; stride >>= 1) {
    __syncthreads();
    uint pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
    compareExchange(sKey[pos], sVal[pos], sKey[pos + stride], sVal[pos + stride], ddd);
  }
  __syncthreads();
  key[base + threadIdx.x] = sKey[threadIdx.x];
  val[base + threadIdx.x] = sVal[threadIdx.x];
  key[base + threadIdx.x + SHARED_SIZE_LIMIT / 2] = sKey[threadIdx.x + SHARED_SIZE_LIMIT / 2];
  val[base + threadIdx.x + SHARED_SIZE_LIMIT / 2] = sVal[threadIdx.x + SHARED_SIZE_LIMIT / 2];
}

// Pads [n, paddedN) with the key that sorts last for the direction.
template <typename K, typename V>
__global__ void padTail(K *key, V *val, uint n, uint paddedN, K padKey) {
  const uint i = n + blockIdx.x * blockDim.x + threadIdx.x;
  if (i < paddedN) {
    key[i] = padKey;
    val[i] = V(-1);
  }
}

// Sorts paddedN (a power of two, at least SHARED_SIZE_LIMIT) pairs in place
// through the scratch arrays; dir 1 ascending, 0 descending.
template <typename K, typename V>
void bitonicSort(K *dKey, V *dVal, K *dTmpKey, V *dTmpVal, uint paddedN, uint dir) {
  const uint blocks = paddedN / SHARED_SIZE_LIMIT;
  bitonicSortShared<K, V><<<blocks, SORT_THREADS>>>(dTmpKey, dTmpVal, dKey, dVal, dir);
  checkCuda(cudaGetLastError());
  for (uint size = 2 * SHARED_SIZE_LIMIT; size <= paddedN; size <<= 1)
    for (uint stride = size / 2; stride > 0; stride >>= 1) {
      if (stride >= SHARED_SIZE_LIMIT) {
        bitonicMergeGlobal<K, V><<<(paddedN / 2 + 127) / 128, 128>>>(dTmpKey, dTmpVal, paddedN,
                                                                     size, stride, dir);
        checkCuda(cudaGetLastError());
      } else {
        bitonicMergeShared<K, V><<<blocks, SORT_THREADS>>>(dTmpKey, dTmpVal, paddedN, size, dir);
        checkCuda(cudaGetLastError());
        break;
      }
    }
  checkCuda(cudaMemcpy(dKey, dTmpKey, paddedN * sizeof(K), cudaMemcpyDeviceToDevice));
  checkCuda(cudaMemcpy(dVal, dTmpVal, paddedN * sizeof(V), cudaMemcpyDeviceToDevice));
}
