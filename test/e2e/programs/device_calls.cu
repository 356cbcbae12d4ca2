// Device-side calls a kernel makes that the emulator's preparation must
// accept in both languages: printf (llm.c's layernorm_backward guards its
// channel count with it), __trap() (HIP: abort()), and atomicAdd on
// __half2 and __nv_bfloat162 (a pair added in one atomic step).
#include <cstdio>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

__global__ void accumulate(int channels, __nv_bfloat162 *bf, __half2 *h) {
  if (channels % 8 != 0) {
    if (threadIdx.x == 0 && blockIdx.x == 0)
      printf("Number of channels is not a multiple of 8\n");
    __trap();
  }
  atomicAdd(bf, __floats2bfloat162_rn(1.0f, 2.0f));
  atomicAdd(h, __floats2half2_rn(0.5f, 0.25f));
}

int main() {
  __nv_bfloat162 *bf;
  __half2 *h;
  cudaMalloc(&bf, sizeof(*bf));
  cudaMalloc(&h, sizeof(*h));
  cudaMemset(bf, 0, sizeof(*bf));
  cudaMemset(h, 0, sizeof(*h));
  accumulate<<<2, 32>>>(64, bf, h);
  __nv_bfloat162 hb;
  __half2 hh;
  cudaMemcpy(&hb, bf, sizeof hb, cudaMemcpyDeviceToHost);
  cudaMemcpy(&hh, h, sizeof hh, cudaMemcpyDeviceToHost);
  bool ok = __low2float(hb) == 64.0f && __high2float(hb) == 128.0f &&
            __low2float(hh) == 32.0f && __high2float(hh) == 16.0f;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
