// HIP MFMA GEMM with column-major operands and result (A M x K with lda = M,
// B K x N with ldb = K, C M x N with ldc = M), the lane from __lane_id(), one
// 64-lane wave per block and block (x, y) computing the 16x16 tile of C at
// rows 16 * y, columns 16 * x.  The CUDA target maps it to WMMA with col_major
// fragments and mem_col_major stores (PK6043).
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>

typedef _Float16 h4 __attribute__((ext_vector_type(4)));
typedef float f4 __attribute__((ext_vector_type(4)));

__global__ void mfma_colmajor(const __half *A, const __half *B, float *C,
                              int M, int K) {
  const unsigned lane = __lane_id();
  const unsigned i0 = blockIdx.y * 16, j0 = blockIdx.x * 16;
  const unsigned grp = (lane >> 4) & 3;
  f4 acc = {0, 0, 0, 0};
  for (int k = 0; k < K; k += 16) {
    h4 a;
    h4 b;
    for (int e = 0; e < 4; ++e)
      a[e] = A[(size_t)(k + grp * 4 + e) * M + i0 + (lane & 15)];
    for (int e = 0; e < 4; e++)
      b[e] = B[(size_t)(j0 + (lane & 15)) * K + k + grp * 4 + e];
    acc = __builtin_amdgcn_mfma_f32_16x16x16f16(a, b, acc, 0, 0, 0);
  }
  for (int r = 0; r < 4; ++r) {
    C[(size_t)(j0 + lane % 16) * M + i0 + 4 * grp + r] = acc[r];
  }
}
