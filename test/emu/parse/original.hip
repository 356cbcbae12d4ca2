// Original HIP source, parsed by the translator front end.
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>

typedef _Float16 half4_t __attribute__((ext_vector_type(4)));
typedef float float4_t __attribute__((ext_vector_type(4)));

__global__ void reduce(const float* in, float* out) {
  __shared__ float s[64];
  int lane = __lane_id();
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = warpSize / 2; o > 0; o >>= 1) v += __shfl_down(v, o);
  unsigned long long b = __ballot(v > 0);
  if (lane == 0) s[threadIdx.x / warpSize] = v + __popcll(b);
  __syncthreads();
  if (threadIdx.x == 0) atomicAdd(out, s[0]);
}

__global__ void mfma(const half4_t* a, const half4_t* b, float4_t* d) {
  float4_t c = {0, 0, 0, 0};
  d[threadIdx.x] = __builtin_amdgcn_mfma_f32_16x16x16f16(a[threadIdx.x], b[threadIdx.x], c, 0, 0, 0);
}

int main() {
  float *in, *out;
  hipMalloc(&in, 256 * sizeof(float));
  hipMalloc(&out, sizeof(float));
  hipLaunchKernelGGL(reduce, dim3(4), dim3(64), 0, 0, in, out);
  reduce<<<4, 64>>>(in, out);
  hipDeviceSynchronize();
  hipFree(in);
  return 0;
}
