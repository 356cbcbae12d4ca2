// softmax_per_thread: y[r][:] = softmax(x[r][:]), one thread per row (the
// first, simplest kernel of many softmax write-ups).
// Idiom: pointers to the thread's row, three passes over it (max, sum of
// exponentials, normalise), the block size any multiple of 32 up to 1024.
// EXPECT: lift
#include <cuda_runtime.h>
#include <math.h>

__global__ void softmax_per_thread(float *y, const float *x, int rows,
                                   int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  const float *xr = x + r * cols;
  float *yr = y + r * cols;
  float m = -INFINITY;
  for (int c = 0; c < cols; ++c)
    m = fmaxf(m, xr[c]);
  float s = 0.0f;
  for (int c = 0; c < cols; ++c)
    s += expf(xr[c] - m);
  for (int c = 0; c < cols; ++c)
    yr[c] = expf(xr[c] - m) / s;
}
