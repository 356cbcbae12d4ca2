// row_umax_per_thread: out[r] = max_c x[r][c] over uint32 values (keys,
// bit patterns) of any magnitude, one thread per row.
// Idiom: the running maximum starts at 0 and is kept with CUDA's unsigned
// max().
// EXPECT: lift
#include <cuda_runtime.h>

__global__ void row_umax_per_thread(unsigned *out, const unsigned *x,
                                    int rows, int cols) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  unsigned m = 0;
  for (int c = 0; c < cols; c++)
    m = max(m, x[r * cols + c]);
  out[r] = m;
}
