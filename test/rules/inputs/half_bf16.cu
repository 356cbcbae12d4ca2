// Half and bfloat16 conversions and arithmetic.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

__global__ void mixed(const __half *h, const __nv_bfloat16 *b, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __half a = __float2half(1.5f);
  __half r = __float2half_rn(0.25f);
  __half s = __hadd(h[i], a);
  s = __hmul(s, r);
  s = __hfma(s, a, r);
  s = s * a + r;
  s += a;
  __half2 p = __floats2half2_rn(1.0f, 2.0f);
  __half2 q = __half2half2(s);
  p = __hadd2(p, q);
  p = __hmul2(p, __halves2half2(a, r));
  float2 pf = __half22float2(p);
  bool gt = __hgt(s, a) || s > r;
  __half sq = hsqrt(s);

  __nv_bfloat16 x = __float2bfloat16(2.0f);
  __nv_bfloat16 y = __float2bfloat16_rn((float)i);
  __nv_bfloat16 z = __hadd(b[i], x);
  z = __hmul(z, y);
  __nv_bfloat162 bp = __floats2bfloat162_rn(1.0f, 2.0f);
  float2 bpf = __bfloat1622float2(bp);
  nv_bfloat16 w = z;

  out[i] = __half2float(s) + __half2float(sq) + pf.x + pf.y + __low2float(p) +
           __bfloat162float(w) + bpf.x + (gt ? 1.0f : 0.0f);
  half hh = __ushort_as_half(__half_as_ushort(s));
  out[i] += __half2float(hh) + __half2float(__shfl_xor_sync(0xffffffffu, s, 1));
}

int main() {
  __half *h;
  __nv_bfloat16 *b;
  float *out;
  cudaMalloc(&h, 256 * sizeof(__half));
  cudaMalloc(&b, 256 * sizeof(__nv_bfloat16));
  cudaMalloc(&out, 256 * sizeof(float));
  mixed<<<1, 256>>>(h, b, out, 256);
  __half hostH = __float2half(3.0f);
  float back = __half2float(hostH);
  (void)back;
  cudaDeviceSynchronize();
  cudaFree(h);
  cudaFree(b);
  cudaFree(out);
  return 0;
}
