// Device intrinsics: atomics, warp votes and shuffles, bit manipulation,
// fast math, vector types, cuRAND device API and cuComplex.
#include <cuda_runtime.h>
#include <curand_kernel.h>
#include <cuComplex.h>

__global__ void intrinsics(int *ip, unsigned int *up, unsigned long long *ullp, float *fp,
                           double *dp, float4 *v4, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % warpSize;
  atomicAdd(ip, 1);
  atomicSub(ip, 1);
  atomicMax(ip, i);
  atomicMin(ip, i);
  atomicExch(ip, 0);
  atomicCAS(ip, 0, 1);
  atomicAnd(up, 0xffu);
  atomicOr(up, 1u);
  atomicXor(up, 2u);
  atomicInc(up, 10u);
  atomicDec(up, 10u);
  atomicAdd(ullp, 1ull);
  atomicAdd(fp, 1.0f);
  atomicAdd(dp, 1.0);
  atomicAdd_block(ip, 1);
  atomicAdd_system(ip, 1);
  atomicCAS_block(ip, 1, 2);

  unsigned int mask = __activemask();
  unsigned int ballot = __ballot_sync(0xffffffffu, i < n);
  int any = __any_sync(mask, i == 0);
  int all = __all_sync(mask, i >= 0);
  float f = fp[i];
  f += __shfl_sync(0xffffffffu, f, 0);
  f += __shfl_up_sync(0xffffffffu, f, 1);
  f += __shfl_down_sync(0xffffffffu, f, 1, 16);
  f += __shfl_xor_sync(0xffffffffu, f, 1);
  __syncwarp();
  unsigned int same = __match_any_sync(0xffffffffu, i / 4);

  int bits = __popc(ballot) + __clz(ballot) + __ffs(ballot) + __popcll(*ullp) + (int)__brev(1u);
  unsigned int hi = __umulhi((unsigned)i, 3u) + __byte_perm(1u, 2u, 0x3210u);
  f = __fdividef(f, 3.0f) + __expf(f) + __sinf(f) + __cosf(f) + __logf(f + 1.0f) + __powf(f, 2.0f);
  f += rsqrtf(f) + fmaxf(f, 0.0f) + fminf(f, 1.0f) + __saturatef(f) + __fmaf_rn(f, f, f);
  f += __int_as_float(__float_as_int(f)) + __uint_as_float(__float_as_uint(f));
  double d = __longlong_as_double(__double_as_longlong(dp[0])) + __dsqrt_rn(2.0) + __drcp_rn(2.0);
  int ri = __float2int_rn(f) + __float2int_rz(f) + __mul24(i, 2) + __sad(i, 2, 0u);
  float cl = (float)clock64() + (float)clock();
  __threadfence();
  __threadfence_block();
  __threadfence_system();
  int cnt = __syncthreads_count(i < n);
  int andv = __syncthreads_and(i < n);
  int orv = __syncthreads_or(i < n);
  float ldg = __ldg(&fp[0]);

  float4 a = v4[i];
  float4 b = make_float4(1.0f, 2.0f, 3.0f, 4.0f);
  int2 i2 = make_int2(lane, i);
  uint3 tid = threadIdx;
  dim3 bd = blockDim;
  double2 d2 = make_double2(d, d);
  v4[i] = make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);

  curandState st;
  curand_init(1234ull, (unsigned long long)i, 0ull, &st);
  float u = curand_uniform(&st) + curand_normal(&st);
  unsigned int rnd = curand(&st);
  curandStatePhilox4_32_10_t ph;
  curand_init(42ull, 0ull, 0ull, &ph);
  float4 u4 = curand_uniform4(&ph);

  cuFloatComplex c1 = make_cuFloatComplex(1.0f, 2.0f);
  cuFloatComplex c2 = cuCmulf(c1, cuConjf(c1));
  float mag = cuCabsf(cuCaddf(c1, c2)) + cuCrealf(c2) + cuCimagf(c2);
  cuDoubleComplex z = cuCmul(make_cuDoubleComplex(1.0, 0.0), make_cuDoubleComplex(0.0, 1.0));

  fp[i] = f + ldg + cl + u + u4.x + mag + (float)(cuCreal(z) + d2.x) +
          (float)(any + all + bits + hi + ri + cnt + andv + orv + rnd + same + i2.x + tid.x + bd.x);
}

int main() {
  int *ip;
  cudaMalloc(&ip, sizeof(int));
  intrinsics<<<1, 32>>>(ip, nullptr, nullptr, nullptr, nullptr, nullptr, 32);
  cudaDeviceSynchronize();
  cudaFree(ip);
  return 0;
}
