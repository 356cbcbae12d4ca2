// A single-pass sum in the style of the threadfence-reduction sample: every
// block writes its partial sum, fences, and takes a ticket with atomicInc;
// the block that draws the last ticket sums the partials.  atomicInc wraps
// the counter back to 0 at gridDim.x - 1, so the next launch needs no reset.
#pragma once

#define BLOCK 256

__device__ unsigned int retirementCount = 0;

template <unsigned int blockSize>
__device__ float blockReduce(float v, float *smem) {
  unsigned int tid = threadIdx.x;
  smem[tid] = v;
  __syncthreads();
  for (unsigned int s = blockSize / 2; s > 32; s >>= 1) {
    if (tid < s) smem[tid] = v = v + smem[tid + s];
    __syncthreads();
  }
  if (tid < 32) {
    if (blockSize >= 64) v += smem[tid + 32];
    for (int offset = 16; offset > 0; offset /= 2)
      v += __shfl_down_sync(0xffffffff, v, offset);
  }
  return v;
}

template <unsigned int blockSize>
__global__ void reduceSinglePass(const float *in, float *partial, float *out, unsigned int n) {
  __shared__ float smem[blockSize];
  __shared__ bool amLast;
  float sum = 0.0f;
  for (unsigned int i = blockIdx.x * blockSize + threadIdx.x; i < n; i += blockSize * gridDim.x)
    sum += in[i];
  sum = blockReduce<blockSize>(sum, smem);
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = sum;
    __threadfence();
    unsigned int ticket = atomicInc(&retirementCount, gridDim.x);
    amLast = (ticket == gridDim.x - 1);
  }
  __syncthreads();
  if (amLast) {
    float s = 0.0f;
    for (unsigned int i = threadIdx.x; i < gridDim.x; i += blockSize) s += partial[i];
    s = blockReduce<blockSize>(s, smem);
    if (threadIdx.x == 0) {
      out[0] = s;
      retirementCount = 0;
    }
  }
}

// A countdown that atomicDec wraps: each block takes one slot of a ring of
// `slots` entries, counting down from slots - 1.
__global__ void ringSlots(unsigned int *head, int *owner, unsigned int slots) {
  if (threadIdx.x == 0) {
    unsigned int slot = atomicDec(head, slots - 1);
    atomicAdd(&owner[slot], 1);
  }
}
