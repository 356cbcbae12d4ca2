#include <cuda_runtime.h>
#include <cuda_bf16.h>
// Conversions that depend on a template parameter.
template <typename T> __device__ __nv_bfloat16 to_bf16(T v) { return v * 2; }
template <typename T> __device__ void store(__nv_bfloat16 *p, T v) { *p = v; }
__global__ void k(const float *in, __nv_bfloat16 *out) {
  out[threadIdx.x] = to_bf16(in[threadIdx.x]);
  store(out + 1, in[0]);
  store(out + 2, out[0]);
}
