// argmax_per_thread: idx[r] = argmax_c x[r][c] (first index on ties).
// Idiom: one thread per row walks its row keeping a (value, index) pair,
// taking a new index only on a strictly larger value.
// EXPECT: lift
#include <cuda_runtime.h>
#include <float.h>

__global__ void argmax_per_thread(int *idx, const float *x, int rows,
                                  int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  float best = -FLT_MAX;
  int at = 0;
  for (int c = 0; c < cols; ++c) {
    float v = x[r * cols + c];
    if (v > best) {
      best = v;
      at = c;
    }
  }
  idx[r] = at;
}
