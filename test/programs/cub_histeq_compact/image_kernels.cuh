// Kernels of the image pipeline: a privatised 256-bin histogram, the
// equalisation lookup table from the cumulative histogram, the remap, and
// the flag/scatter halves of a stream compaction.
#pragma once
#include <cub/cub.cuh>
#include "error_check.h"

// Per-block histogram in shared memory, merged into the global one.
__global__ void histogram256(const unsigned char *__restrict__ img, int n,
                             unsigned int *__restrict__ hist) {
  __shared__ unsigned int sHist[NUM_BINS];
  for (int b = threadIdx.x; b < NUM_BINS; b += blockDim.x)
    sHist[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&sHist[img[i]], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < NUM_BINS; b += blockDim.x)
    if (sHist[b])
      atomicAdd(&hist[b], sHist[b]);
}

// lut[v] = round((cdf[v] - cdfMin) * 255 / (n - cdfMin)), cdfMin the cdf of
// the darkest pixel value present.
__global__ void buildLut(const unsigned int *__restrict__ cdf, const unsigned char *minValue,
                         int n, unsigned char *__restrict__ lut) {
  const int v = threadIdx.x;
  const unsigned int cdfMin = cdf[*minValue];
  const float scale = n > (int)cdfMin ? 255.0f / (float)(n - cdfMin) : 0.0f;
  float mapped = cdf[v] > cdfMin ? (float)(cdf[v] - cdfMin) * scale : 0.0f;
  lut[v] = (unsigned char)fminf(rintf(mapped), 255.0f);
}

// The remap, ITEMS pixels per thread: a tile of BLOCK * ITEMS pixels moves
// through cub::BlockLoad / cub::BlockStore (striped, guarded at the ragged
// end of the image), the table sits in shared memory.
template <int BLOCK, int ITEMS>
__global__ void applyLut(unsigned char *__restrict__ out, const unsigned char *__restrict__ in,
                         const unsigned char *__restrict__ lut, int n) {
  typedef cub::BlockLoad<unsigned char, BLOCK, ITEMS, cub::BLOCK_LOAD_STRIPED> Load;
  typedef cub::BlockStore<unsigned char, BLOCK, ITEMS, cub::BLOCK_STORE_STRIPED> Store;
  __shared__ typename Load::TempStorage loadTmp;
  __shared__ typename Store::TempStorage storeTmp;
  __shared__ unsigned char sLut[NUM_BINS];
  for (int b = threadIdx.x; b < NUM_BINS; b += BLOCK)
    sLut[b] = lut[b];

  const int tileBase = blockIdx.x * BLOCK * ITEMS;
  const int valid = min(BLOCK * ITEMS, n - tileBase);
  unsigned char pix[ITEMS];
  Load(loadTmp).Load(in + tileBase, pix, valid, 0); // items past the end read 0
  __syncthreads();
#pragma unroll
  for (int k = 0; k < ITEMS; ++k)
    pix[k] = sLut[pix[k]];
  Store(storeTmp).Store(out + tileBase, pix, valid);
}

template <typename Pred>
__global__ void markFlags(const unsigned char *__restrict__ img, int n, Pred pred,
                          int *__restrict__ flags) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    flags[i] = pred(img[i]) ? 1 : 0;
}

// Writes the index and value of each flagged pixel at its scanned offset.
__global__ void scatterSelected(const unsigned char *__restrict__ img,
                                const int *__restrict__ flags,
                                const int *__restrict__ offsets, int n,
                                int *__restrict__ outIndex, unsigned char *__restrict__ outValue) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && flags[i]) {
    outIndex[offsets[i]] = i;
    outValue[offsets[i]] = img[i];
  }
}

struct BrighterThan {
  unsigned char threshold;
  __host__ __device__ bool operator()(unsigned char v) const { return v > threshold; }
};

// The same compaction in one pass with warp-aggregated atomics: the warp's
// flagged lanes are counted with a ballot, one lane reserves room for all of
// them, and each writes at the reservation plus its rank among them.  The
// order of the selected pixels is not kept.
template <typename Pred>
__global__ void compactWarpAggregated(const unsigned char *__restrict__ img, int n, Pred pred,
                                      int *__restrict__ outIndex, int *__restrict__ counter) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % 32;
  const bool keep = i < n && pred(img[i]);
  const unsigned int ballot = __ballot_sync(0xffffffffu, keep);
  const int leader = __ffs(ballot) - 1;
  int base = 0;
  if (lane == leader)
    base = atomicAdd(counter, __popc(ballot));
  base = __shfl_sync(0xffffffffu, base, leader < 0 ? 0 : leader);
  if (keep) {
    const int rank = __popc(ballot & ((1u << lane) - 1u));
    outIndex[base + rank] = i;
  }
}
