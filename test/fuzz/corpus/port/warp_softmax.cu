// Row softmax, one warp per row.  Each lane walks the row with a stride of
// 32; max and sum are combined across the warp with butterfly shuffles.
#include <cuda_runtime.h>
#include <float.h>

__global__ void softmax_warp_per_row(const float *__restrict__ in,
                                     float *__restrict__ out, int rows,
                                     int cols) {
  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x >> 5;
  const int warpsPerBlock = blockDim.x / 32;
  const int row = blockIdx.x * warpsPerBlock + warp;
  if (row >= rows)
    return; // whole warp leaves together

  const float *x = in + (size_t)row * cols;
  float *y = out + (size_t)row * cols;

  float m = -FLT_MAX;
  for (int c = lane; c < cols; c += 32)
    m = fmaxf(m, x[c]);
  for (int offset = 16; offset > 0; offset >>= 1)
    m = fmaxf(m, __shfl_xor_sync(0xffffffff, m, offset));

  float sum = 0.0f;
  for (int c = lane; c < cols; c += 32)
    sum += __expf(x[c] - m);
  for (int offset = 16; offset > 0; offset >>= 1)
    sum += __shfl_xor_sync(0xffffffff, sum, offset);

  const float inv = 1.0f / sum;
  for (int c = lane; c < cols; c += 32)
    y[c] = __expf(x[c] - m) * inv;
}
