// out[r][c] = gelu(in[r][c] + bias[c]) (tanh approximation), 2-D launch.
#include <cuda_runtime.h>
#include <math.h>

#define GELU_COEF 0.044715f
#define SQRT_2_OVER_PI 0.7978845608028654f

__device__ __forceinline__ float gelu_tanh(float x) {
  const float inner = SQRT_2_OVER_PI * (x + GELU_COEF * x * x * x);
  return 0.5f * x * (1.0f + tanhf(inner));
}

__global__ void bias_gelu(float *out, const float *in, const float *bias,
                          int rows, int cols) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= rows || col >= cols)
    return;
  const size_t idx = (size_t)row * cols + col;
  out[idx] = gelu_tanh(in[idx] + __ldg(&bias[col]));
}
