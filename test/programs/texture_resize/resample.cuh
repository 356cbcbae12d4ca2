// Resampling kernels over texture objects (resample.cu).
#pragma once
#include <cuda_runtime.h>

struct ImageSize {
  int width, height;
};

// dst (w x h floats, RGBA interleaved) = src texture resized with bilinear filtering.
void resizeRgba(cudaTextureObject_t src, float4 *dst, ImageSize out, cudaStream_t stream);
// dst = 3x3 box blur of the texture (point sampling, clamped borders).
void boxBlur(cudaTextureObject_t src, float *dst, ImageSize size, cudaStream_t stream);
// dst[i] = lut[src[i]] through a texture over linear memory.
void applyLut(cudaTextureObject_t lut, const int *src, int *dst, int n, cudaStream_t stream);
