// gelu_backward_cosh: dx[i] = d/dx GELU(tanh form)(x[i]) * dy[i], written
// with coshf for the derivative of tanh (sech^2 = 1 / cosh^2).
// Idiom: a math function with no activation.  cosh is e^(x - ln 2) +
// e^(-x - ln 2), which overflows where cosh does; the cases reach |x| = 95.
// EXPECT: lift
#include <cuda_runtime.h>

#define GELU_K 0.7978845608f

__global__ void gelu_backward_cosh(float *dx, const float *x, const float *dy,
                                   int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    float u = GELU_K * (v + 0.044715f * v * v * v);
    float th = tanhf(u);
    float ch = coshf(u);
    float sech2 = 1.0f / (ch * ch);
    float g = 0.5f * (1.0f + th) +
              v * 0.5f * sech2 * GELU_K * (1.0f + 3.0f * 0.044715f * v * v);
    dx[i] = g * dy[i];
  }
}
