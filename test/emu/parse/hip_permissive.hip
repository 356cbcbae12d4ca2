// A HIP port that relies on what ROCm's headers do not allow: rsqrtf called
// from host code (device-only in HIP) and a float assigned to hip_bfloat16
// (its float constructor is explicit and it has no operator=(float)).
#include <hip/hip_runtime.h>
#include <hip/hip_bfloat16.h>

__global__ void scale(hip_bfloat16 *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] * rsqrtf(2.f); // BF16_ASSIGN_LINE
}

int main() {
  float ref = rsqrtf(2.f); // HOST_RSQRT_LINE
  return ref > 0.f ? 0 : 1;
}
