#include "resample.cuh"

__global__ void resizeKernel(cudaTextureObject_t src, float4 *dst, ImageSize out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= out.width || y >= out.height) return;
  // Normalised coordinates of the output pixel's centre.
  float u = (x + 0.5f) / out.width, v = (y + 0.5f) / out.height;
  dst[y * out.width + x] = tex2D<float4>(src, u, v);
}

__global__ void blurKernel(cudaTextureObject_t src, float *dst, ImageSize size) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= size.width || y >= size.height) return;
  float sum = 0.0f;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) sum += tex2D<float>(src, x + dx + 0.5f, y + dy + 0.5f);
  dst[y * size.width + x] = sum / 9.0f;
}

__global__ void lutKernel(cudaTextureObject_t lut, const int *src, int *dst, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    dst[i] = tex1Dfetch<int>(lut, src[i]);
}

void resizeRgba(cudaTextureObject_t src, float4 *dst, ImageSize out, cudaStream_t stream) {
  dim3 block(16, 8), grid((out.width + 15) / 16, (out.height + 7) / 8);
  resizeKernel<<<grid, block, 0, stream>>>(src, dst, out);
}

void boxBlur(cudaTextureObject_t src, float *dst, ImageSize size, cudaStream_t stream) {
  dim3 block(16, 16), grid((size.width + 15) / 16, (size.height + 15) / 16);
  blurKernel<<<grid, block, 0, stream>>>(src, dst, size);
}

void applyLut(cudaTextureObject_t lut, const int *src, int *dst, int n, cudaStream_t stream) {
  lutKernel<<<8, 128, 0, stream>>>(lut, src, dst, n);
}
