// The work-efficient exclusive scan of GPU Gems 3, chapter 39, on blocks of
// ELEMS_PER_BLOCK elements, with the per-block totals scanned in a second
// pass and added back.
#pragma once
#include "scan_common.h"

// Dynamically sized shared memory of any element type: extern __shared__
// arrays of different types in templates would clash, so the storage is
// declared once per type through this wrapper (the samples' idiom).
template <class T> struct SharedMemory {
  __device__ inline operator T *() {
    extern __shared__ int __smem[];
    return (T *)__smem;
  }
  __device__ inline operator const T *() const {
    extern __shared__ int __smem[];
    return (T *)__smem;
  }
};

template <> struct SharedMemory<double> {
  __device__ inline operator double *() {
    extern __shared__ double __smem_d[];
    return (double *)__smem_d;
  }
  __device__ inline operator const double *() const {
    extern __shared__ double __smem_d[];
    return (double *)__smem_d;
  }
};

template <typename T>
__device__ void upSweep(T *temp, int n, int &offset) {
  int thid = threadIdx.x;
  offset = 1;
  for (int d = n >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (thid < d) {
      int ai = offset * (2 * thid + 1) - 1;
      int bi = offset * (2 * thid + 2) - 1;
      ai += CONFLICT_FREE_OFFSET(ai);
      bi += CONFLICT_FREE_OFFSET(bi);
      temp[bi] += temp[ai];
    }
    offset *= 2;
  }
}

template <typename T>
__device__ void downSweep(T *temp, int n, int offset) {
  int thid = threadIdx.x;
  for (int d = 1; d < n; d *= 2) {
    offset >>= 1;
    __syncthreads();
    if (thid < d) {
      int ai = offset * (2 * thid + 1) - 1;
      int bi = offset * (2 * thid + 2) - 1;
      ai += CONFLICT_FREE_OFFSET(ai);
      bi += CONFLICT_FREE_OFFSET(bi);
      T t = temp[ai];
      temp[ai] = temp[bi];
      temp[bi] += t;
    }
  }
  __syncthreads();
}

// Exclusive scan of each block's ELEMS_PER_BLOCK elements; the block's total
// goes to blockSums (when given) for the second pass.
template <typename T>
__global__ void prescanBlocks(T *out, const T *in, T *blockSums, int n) {
  T *temp = SharedMemory<T>();
  const int thid = threadIdx.x;
  const int base = blockIdx.x * ELEMS_PER_BLOCK;
  int ai = thid;
  int bi = thid + SCAN_THREADS;
  int bankOffsetA = CONFLICT_FREE_OFFSET(ai);
  int bankOffsetB = CONFLICT_FREE_OFFSET(bi);
  temp[ai + bankOffsetA] = (base + ai < n) ? in[base + ai] : T(0);
  temp[bi + bankOffsetB] = (base + bi < n) ? in[base + bi] : T(0);

  int offset;
  upSweep(temp, ELEMS_PER_BLOCK, offset);

  if (thid == 0) {
    const int last = ELEMS_PER_BLOCK - 1 + CONFLICT_FREE_OFFSET(ELEMS_PER_BLOCK - 1);
    if (blockSums)
      blockSums[blockIdx.x] = temp[last];
    temp[last] = T(0);
  }

  downSweep(temp, ELEMS_PER_BLOCK, offset);

  if (base + ai < n)
    out[base + ai] = temp[ai + bankOffsetA];
  if (base + bi < n)
    out[base + bi] = temp[bi + bankOffsetB];
}

// Adds the scanned total of all earlier blocks to every element of a block.
template <typename T>
__global__ void uniformAdd(T *data, const T *incr, int n) {
  __shared__ T uni;
  if (threadIdx.x == 0)
    uni = incr[blockIdx.x];
  __syncthreads();
  int i = blockIdx.x * ELEMS_PER_BLOCK + threadIdx.x;
  if (i < n)
    data[i] += uni;
  if (i + SCAN_THREADS < n)
    data[i + SCAN_THREADS] += uni;
}
