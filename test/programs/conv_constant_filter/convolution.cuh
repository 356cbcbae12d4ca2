// Image convolution with the filter taps in constant memory: a separable
// pair (rows, then columns) through shared-memory tiles with an apron, and a
// direct 2-D filter.  Pixels outside the image clamp to the edge.
#pragma once
#include "cuda_check.h"

#define MAX_RADIUS 8
#define FILTER2D_RADIUS 2
#define FILTER2D_WIDTH (2 * FILTER2D_RADIUS + 1)

// Tap sets of separable filters: each set is its row taps, then its column
// taps; kernels name the set they use, so filters on different streams do
// not overwrite each other's taps.
#define TAP_SETS 2
#define TAP_SET_SIZE (2 * (2 * MAX_RADIUS + 1))
__constant__ float c_taps[TAP_SETS * TAP_SET_SIZE];
__constant__ float c_filter2d[FILTER2D_WIDTH][FILTER2D_WIDTH];

#define ROW_TILE_W 32
#define ROW_TILE_H 4
#define COL_TILE_W 16
#define COL_TILE_H 16

__device__ __forceinline__ int clampi(int v, int lo, int hi) { return min(max(v, lo), hi); }

template <int R>
__global__ void convolutionRows(float *dst, const float *src, int w, int h, int tapSet) {
  __shared__ float tile[ROW_TILE_H][ROW_TILE_W + 2 * R];
  const int x0 = blockIdx.x * ROW_TILE_W;
  const int y = min(blockIdx.y * ROW_TILE_H + threadIdx.y, h - 1);
  const float *row = src + y * w;
  for (int k = threadIdx.x; k < ROW_TILE_W + 2 * R; k += blockDim.x)
    tile[threadIdx.y][k] = row[clampi(x0 + k - R, 0, w - 1)];
  __syncthreads();

  const int x = x0 + threadIdx.x;
  if (x >= w || blockIdx.y * ROW_TILE_H + threadIdx.y >= h)
    return;
  float sum = 0.0f;
#pragma unroll
  for (int k = -R; k <= R; ++k)
    sum += c_taps[tapSet * TAP_SET_SIZE + R - k] * tile[threadIdx.y][threadIdx.x + R + k];
  dst[y * w + x] = sum;
}

template <int R>
__global__ void convolutionColumns(float *dst, const float *src, int w, int h, int tapSet) {
  __shared__ float tile[COL_TILE_H + 2 * R][COL_TILE_W];
  const int x = min(blockIdx.x * COL_TILE_W + threadIdx.x, w - 1);
  const int y0 = blockIdx.y * COL_TILE_H;
  for (int k = threadIdx.y; k < COL_TILE_H + 2 * R; k += blockDim.y)
    tile[k][threadIdx.x] = src[clampi(y0 + k - R, 0, h - 1) * w + x];
  __syncthreads();

  const int y = y0 + threadIdx.y;
  if (blockIdx.x * COL_TILE_W + threadIdx.x >= w || y >= h)
    return;
  const float *taps = c_taps + tapSet * TAP_SET_SIZE + (2 * R + 1);
  float sum = 0.0f;
#pragma unroll
  for (int k = -R; k <= R; ++k)
    sum += taps[R - k] * tile[threadIdx.y + R + k][threadIdx.x];
  dst[y * w + x] = sum;
}

// Direct 2-D filter, no shared memory: every tap read from constant memory
// by all threads of a warp at once (the broadcast case).
__global__ void convolution2D(float *dst, const float *src, int w, int h) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h)
    return;
  float sum = 0.0f;
  for (int dy = -FILTER2D_RADIUS; dy <= FILTER2D_RADIUS; ++dy) {
    const int yy = clampi(y + dy, 0, h - 1);
    for (int dx = -FILTER2D_RADIUS; dx <= FILTER2D_RADIUS; ++dx) {
      const int xx = clampi(x + dx, 0, w - 1);
      sum += c_filter2d[dy + FILTER2D_RADIUS][dx + FILTER2D_RADIUS] * __ldg(&src[yy * w + xx]);
    }
  }
  dst[y * w + x] = sum;
}

// dst = (src - lo) * scale, four pixels per thread through float4 loads and
// stores, the tail (n not a multiple of 4) by the first threads.
__global__ void __launch_bounds__(256)
normalizeImage(float *__restrict__ dst, const float *__restrict__ src, int n, float lo,
               float scale) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int n4 = n / 4;
  if (i < n4) {
    float4 v = reinterpret_cast<const float4 *>(src)[i];
    v.x = (v.x - lo) * scale;
    v.y = (v.y - lo) * scale;
    v.z = (v.z - lo) * scale;
    v.w = (v.w - lo) * scale;
    reinterpret_cast<float4 *>(dst)[i] = v;
  }
  const int tail = 4 * n4 + i;
  if (i < 4 && tail < n)
    dst[tail] = (src[tail] - lo) * scale;
}

// Gradient magnitude of two filtered images.
__global__ void magnitude(float *dst, const float *gx, const float *gy, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    dst[i] = sqrtf(gx[i] * gx[i] + gy[i] * gy[i]);
}

// Host side: upload the taps of a separable filter into a tap set.  The
// asynchronous form orders the copy with the stream's kernels.
inline void setSeparableTaps(const float *rowTaps, const float *colTaps, int radius,
                             int tapSet = 0) {
  const size_t n = 2 * radius + 1;
  const size_t base = tapSet * TAP_SET_SIZE * sizeof(float);
  CUDA_CHECK(cudaMemcpyToSymbol(c_taps, rowTaps, n * sizeof(float), base));
  CUDA_CHECK(cudaMemcpyToSymbol(c_taps, colTaps, n * sizeof(float), base + n * sizeof(float),
                                cudaMemcpyHostToDevice));
}

inline void setSeparableTapsAsync(const float *rowTaps, const float *colTaps, int radius,
                                  int tapSet, cudaStream_t stream) {
  const size_t n = 2 * radius + 1;
  const size_t base = tapSet * TAP_SET_SIZE * sizeof(float);
  CUDA_CHECK(cudaMemcpyToSymbolAsync(c_taps, rowTaps, n * sizeof(float), base,
                                     cudaMemcpyHostToDevice, stream));
  CUDA_CHECK(cudaMemcpyToSymbolAsync(c_taps, colTaps, n * sizeof(float),
                                     base + n * sizeof(float), cudaMemcpyHostToDevice, stream));
}

template <int R>
void convolutionSeparable(float *d_dst, float *d_tmp, const float *d_src, int w, int h,
                          int tapSet = 0, cudaStream_t stream = 0) {
  dim3 rowBlock(ROW_TILE_W, ROW_TILE_H), rowGrid(iDivUp(w, ROW_TILE_W), iDivUp(h, ROW_TILE_H));
  convolutionRows<R><<<rowGrid, rowBlock, 0, stream>>>(d_tmp, d_src, w, h, tapSet);
  CUDA_CHECK_KERNEL();
  dim3 colBlock(COL_TILE_W, COL_TILE_H), colGrid(iDivUp(w, COL_TILE_W), iDivUp(h, COL_TILE_H));
  convolutionColumns<R><<<colGrid, colBlock, 0, stream>>>(d_dst, d_tmp, w, h, tapSet);
  CUDA_CHECK_KERNEL();
}
