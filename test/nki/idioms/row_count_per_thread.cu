// row_count_per_thread: out[r] = sum_c x[r][c] over int32 values, one thread
// per row (a histogram's row totals, a count of flags).
// Idiom: an int accumulator in a per-thread loop.  The engines add in
// float32, exact only below 2^24: refused rather than rounded.
// EXPECT: refuse PK5007 "an integer sum along a row"
#include <cuda_runtime.h>

__global__ void row_count_per_thread(int *out, const int *x, int rows,
                                     int cols) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  int s = 0;
  for (int c = 0; c < cols; c++)
    s += x[r * cols + c];
  out[r] = s; // EXPECT-AT
}
