// rowmax_float4_lanes: out[r] = max_c x[r][c] for rows of cols floats (cols
// a multiple of 4), one thread per row reading float4s, each vector's
// lanes taken through a helper that returns a reference to lane k.
// Idiom: `vec_at(v, k)` over `float4 &`, a loop over the four lanes.
// EXPECT: lift
#include <cuda_runtime.h>
#include <float.h>

__device__ float &vec_at(float4 &v, int k) {
  return reinterpret_cast<float *>(&v)[k];
}

__global__ void rowmax_float4_lanes(float *out, const float *x, int rows,
                                    int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  const float4 *row = reinterpret_cast<const float4 *>(x + r * cols);
  float m = -FLT_MAX;
  for (int j = 0; j < cols / 4; ++j) {
    float4 v = row[j];
    for (int k = 0; k < 4; ++k)
      m = fmaxf(m, vec_at(v, k));
  }
  out[r] = m;
}
