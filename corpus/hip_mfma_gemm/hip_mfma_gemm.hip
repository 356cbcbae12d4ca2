// GEMM on AMD matrix cores, written in HIP as MFMA code is written: C = A * B
// with half inputs and float accumulation.  A block of 256 threads is four
// 64-lane waves; each wave computes one 16x16 tile of C with
// v_mfma_f32_16x16x16f16.  Each lane loads its four A and four B values per
// K step in the MFMA operand layout (A[i][k] in lane i + 16 * (k / 4),
// element k % 4; B[k][j] in lane j + 16 * (k / 4)), and stores its four
// accumulators in the result layout (D[i][j] in lane j + 16 * (i / 4),
// register i % 4).  A is M x K, B is K x N, C is M x N, all row-major; M and N
// are multiples of 32, K of 16.
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>

#define TILE 16

typedef _Float16 half4_t __attribute__((ext_vector_type(4)));
typedef float float4_t __attribute__((ext_vector_type(4)));

__global__ void __launch_bounds__(256)
mfma_gemm(const __half *A, const __half *B, float *C, int M, int N, int K) {
  const int lane = threadIdx.x % 64;
  const int wave = threadIdx.x / 64;
  const int row0 = blockIdx.y * 2 * TILE + (wave / 2) * TILE;
  const int col0 = blockIdx.x * 2 * TILE + (wave % 2) * TILE;

  float4_t acc = {0.0f, 0.0f, 0.0f, 0.0f};
  for (int k0 = 0; k0 < K; k0 += TILE) {
    half4_t a, b;
    for (int e = 0; e < 4; ++e) {
      a[e] = A[(row0 + lane % 16) * K + k0 + 4 * (lane / 16) + e];
      b[e] = B[(k0 + 4 * (lane / 16) + e) * N + col0 + lane % 16];
    }
    acc = __builtin_amdgcn_mfma_f32_16x16x16f16(a, b, acc, 0, 0, 0);
  }
  for (int r = 0; r < 4; ++r)
    C[(row0 + 4 * (lane / 16) + r) * N + col0 + lane % 16] = acc[r];
}

void launch_mfma_gemm(const __half *A, const __half *B, float *C, int M, int N,
                      int K, hipStream_t stream) {
  hipLaunchKernelGGL(mfma_gemm, dim3(N / 32, M / 32), dim3(256), 0, stream, A,
                     B, C, M, N, K);
}
