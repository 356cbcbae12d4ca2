// rowmax_float4_three_lanes: the max of the first three fields of every
// float4 of a row (x, y, z; w left out): not a reduction over the row's
// columns, so it must not be lifted as one.
// Idiom: a near miss of rowmax_float4_lanes (one lane of each vector
// unread).
// EXPECT: refuse PK5004 "combines only part of the threads' partial reductions"
#include <cuda_runtime.h>
#include <float.h>

__global__ void rowmax_float4_three_lanes(float *out, const float *x, int rows,
                                          int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  const float4 *row = reinterpret_cast<const float4 *>(x + r * cols);
  float m = -FLT_MAX;
  for (int j = 0; j < cols / 4; ++j) {
    float4 v = row[j];
    m = fmaxf(m, fmaxf(v.x, fmaxf(v.y, v.z)));
  }
  out[r] = m;
}
