// col_sum_half: out[c] = sum_r float(x[r][c]) over a half matrix, summed
// in float.
// EXPECT: lift
#include <cuda_runtime.h>
#include <cuda_fp16.h>

__global__ void col_sum_half(float *out, const __half *x, int rows, int cols) {
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= cols)
    return;
  float s = 0.0f;
  for (int r = 0; r < rows; ++r)
    s += __half2float(x[r * cols + c]);
  out[c] = s;
}
