// PK6042: an MFMA builtin written by hand (operands assembled in the MFMA
// lane layout) is not recognised as a WMMA fragment pattern: error, the call
// is left as written.
// RUN: rm -rf %t && not %pk port -q --to cuda -o %t %s 2>&1 | FileCheck %s
#include <hip/hip_runtime.h>

typedef _Float16 half4 __attribute__((ext_vector_type(4)));
typedef float float4v __attribute__((ext_vector_type(4)));

// One 64-lane wave computes a 16x16 tile of C = A * B (A row-major, B
// row-major) with v_mfma_f32_16x16x16f16.
__global__ void mfma16(const _Float16 *A, const _Float16 *B, float *C, int N,
                       int K) {
  const int lane = threadIdx.x;
  float4v acc = {0.f, 0.f, 0.f, 0.f};
  for (int k = 0; k < K; k += 16) {
    half4 a, b;
    for (int e = 0; e < 4; ++e) {
      a[e] = A[(lane % 16) * K + k + 4 * (lane / 16) + e];
      b[e] = B[(k + 4 * (lane / 16) + e) * N + lane % 16];
    }
    acc = __builtin_amdgcn_mfma_f32_16x16x16f16(a, b, acc, 0, 0, 0);
// CHECK: PK6042.hip:[[@LINE-1]]:11: error: __builtin_amdgcn_mfma_f32_16x16x16f16: an MFMA builtin whose fragment pattern is not recognised (only port-kernel's own MFMA helpers map back to WMMA): not translated [PK6042]
  }
  for (int r = 0; r < 4; ++r)
    C[(4 * (lane / 16) + r) * N + lane % 16] = acc[r];
}
