// Kernels of the NKI lifter test (check_lift.py).
#include <cuda_fp16.h>
#include <cuda_runtime.h>

// 2-D, several tiles on both axes, a division and a square root.
__global__ void blend(float *out, const float *p, const float *q, float s,
                      int rows, int cols) {
  const int c = threadIdx.x + blockIdx.x * blockDim.x;
  const int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < rows && c < cols)
    out[r * cols + c] = sqrtf(q[r * cols + c]) * s - p[r * cols + c] / q[r * cols + c];
}

// No bound check: the launch covers the index space (grid_x * block_x).
__global__ void fill_all(__half *out, const __half *in) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = __float2half(__half2float(in[i]) * 3.0f);
}
