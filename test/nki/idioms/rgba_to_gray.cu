// rgba_to_gray: gray[i] = 0.299 r + 0.587 g + 0.114 b of n float4 pixels
// (alpha ignored).
// Idiom: a weighted sum of a record's fields into one value per element.
// EXPECT: lift
#include <cuda_runtime.h>

__global__ void rgba_to_gray(float *gray, const float4 *rgba, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float4 p = rgba[i];
  gray[i] = 0.299f * p.x + 0.587f * p.y + 0.114f * p.z;
}
