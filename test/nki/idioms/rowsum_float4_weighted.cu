// rowsum_float4_weighted: per row, x + 2y + z + w over its float4 vectors:
// the lanes are not combined alike, so this is not a sum over the row's
// columns and must not be lifted as one.
// Idiom: a near miss of rowsumsq_float4_warp (one lane weighted).
// EXPECT: refuse PK5004 "combines only part of the threads' partial reductions"
#include <cuda_runtime.h>

__global__ void rowsum_float4_weighted(float *out, const float *x, int rows,
                                       int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  const float4 *row = reinterpret_cast<const float4 *>(x + r * cols);
  float s = 0.0f;
  for (int j = 0; j < cols / 4; ++j) {
    float4 v = row[j];
    s += v.x + 2.0f * v.y + v.z + v.w;
  }
  out[r] = s;
}
