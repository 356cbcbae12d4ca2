// Original CUDA source (as a user writes it), parsed by the translator front end.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <mma.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
using namespace nvcuda;

__constant__ float coeff[4];
__device__ int counter;
__shared__ float gtile[64];

__device__ __forceinline__ float warp_sum(float v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  return v;
}

template <typename T>
__global__ void __launch_bounds__(256) kern(const T* in, T* out, int n) {
  __shared__ float tile[32][33];
  extern __shared__ float dyn[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.y][threadIdx.x] = i < n ? (float)in[i] * coeff[0] : 0.f;
  __syncthreads();
  float v = warp_sum(tile[threadIdx.y][threadIdx.x]);
  auto tb = cg::this_thread_block();
  auto tile32 = cg::tiled_partition<32>(tb);
  v = cg::reduce(tile32, v, cg::plus<float>());
  unsigned b = __ballot_sync(0xffffffffu, v > 0);
  if (threadIdx.x == 0) atomicAdd(&counter, __popc(b));
  dyn[threadIdx.x] = v + gtile[0] + warpSize;
  half h = __float2half(v);
  if (i < n) out[i] = (T)__half2float(h);
}

__global__ void wmma_kernel(const half* a, const half* b, float* c) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::fill_fragment(fc, 0.0f);
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 16);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
}

int main() {
  float *in, *out;
  cudaMalloc(&in, 1024 * sizeof(float));
  cudaMalloc(&out, 1024 * sizeof(float));
  float h[4] = {1, 2, 3, 4};
  cudaMemcpyToSymbol(coeff, h, sizeof h);
  kern<float><<<4, 256, 1024, 0>>>(in, out, 1024);
  kern<float><<<dim3(4), dim3(256)>>>(in, out, 1024);
  cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorString(cudaGetLastError()));
  cudaFree(in);
  return 0;
}
