// rowsum_pairs_ceil: per row, the sum of its float2 pairs over (cols + 1) /
// 2 vectors: for an odd cols the last pair reads the next row's first
// element, so the reads are not the row's columns and it is refused with
// that reason.
// Idiom: a rounded-up vector count (`(n + 1) / 2`) over rows that are not
// padded.
// EXPECT: refuse PK5007 "padded rows are not lifted"
#include <cuda_runtime.h>

__global__ void rowsum_pairs_ceil(float *out, const float *x, int rows,
                                  int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  const float2 *row = reinterpret_cast<const float2 *>(x + r * cols);
  float s = 0.0f;
  for (int j = 0; j < (cols + 1) / 2; ++j) {
    float2 v = row[j];
    s += v.x + v.y;
  }
  out[r] = s;
}
