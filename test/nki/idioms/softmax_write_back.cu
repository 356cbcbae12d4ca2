// softmax_write_back: y = softmax(x) per row, one thread per row, as a CPU
// loop is often written: the exponentials are stored to the output and
// summed from it, then the output is divided in place by the sum.
// Idiom: reading back what the thread stored (`s += y[c]` after
// `y[c] = ...`) and a second store to the same elements (`y[c] /= s`).
// EXPECT: lift
#include <cuda_runtime.h>
#include <math.h>

__global__ void softmax_write_back(float *y, const float *x, int rows,
                                   int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    const float *xr = x + r * cols;
    float *yr = y + r * cols;
    float m = -INFINITY;
    for (int c = 0; c < cols; c++)
      if (xr[c] > m)
        m = xr[c];
    float s = 0.0f;
    for (int c = 0; c < cols; c++) {
      yr[c] = expf(xr[c] - m);
      s += yr[c];
    }
    for (int c = 0; c < cols; c++)
      yr[c] /= s;
  }
}
