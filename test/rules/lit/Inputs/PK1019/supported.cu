// What ROCm 5 can spell: the type, the header, the float conversions, the
// implicit conversions (written out by PK1016) and the operators.
#include <cuda_runtime.h>
#include <cuda_bf16.h>

__global__ void bf16_axpy(const __nv_bfloat16 *x, __nv_bfloat16 *y, float a,
                          int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  __nv_bfloat16 s = __float2bfloat16(a);
  __nv_bfloat16 v = x[i] * s + y[i];
  float w = __bfloat162float(v);
  y[i] = w > 0.f ? v : __float2bfloat16_rn(0.5f * w);
  __nv_bfloat16 z = 1.0f;
  z = w;
  y[i] = y[i] + z;
}
