// PK6044: a block keeps its thread count on 32-lane warps, so each 64-lane
// wave of an MFMA kernel mapped to WMMA (PK6043) is two warps: the first warp
// of each wave computes the wave's tile, the wave number stays
// threadIdx.x / 64 (not narrowed by PK6033), and code after the matrix part
// runs in every warp.  A kernel without MFMA in the same file is narrowed.
// RUN: rm -rf %t && %pk port -q --to cuda --report %t/r.json -o %t %s
// RUN: FileCheck %s --match-full-lines --input-file=%t/cuda/PK6044.cu
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t/r.json
// REPORT: "rule": "PK6044"
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>

typedef _Float16 half4_t __attribute__((ext_vector_type(4)));
typedef float float4_t __attribute__((ext_vector_type(4)));

// Four waves per block, a 2x2 grid of 16x16 tiles; all row-major, N = K = 64.
__global__ void gemm4(const __half *A, const __half *B, float *C, int *done) {
  const int lane = threadIdx.x % 64;
  const int wave = threadIdx.x / 64;
  const int row0 = blockIdx.y * 32 + (wave / 2) * 16;
  const int col0 = blockIdx.x * 32 + (wave % 2) * 16;
  float4_t acc = {0.0f, 0.0f, 0.0f, 0.0f};
  for (int k0 = 0; k0 < 64; k0 += 16) {
    half4_t a, b;
    for (int e = 0; e < 4; ++e) {
      a[e] = A[(row0 + lane % 16) * 64 + k0 + 4 * (lane / 16) + e];
      b[e] = B[(k0 + 4 * (lane / 16) + e) * 64 + col0 + lane % 16];
    }
    acc = __builtin_amdgcn_mfma_f32_16x16x16f16(a, b, acc, 0, 0, 0);
  }
  for (int r = 0; r < 4; ++r)
    C[(row0 + 4 * (lane / 16) + r) * 64 + col0 + lane % 16] = acc[r];
  if (threadIdx.x == 0)
    atomicAdd(done, 1);
}

__global__ void wave_ids(int *out) {
  out[threadIdx.x] = threadIdx.x / 64;
}

// CHECK:  const int wave = threadIdx.x / 64;
// CHECK:  if (threadIdx.x % 64 < 32) {
// CHECK:    nvcuda::wmma::store_matrix_sync(C + {{.*}}, acc, 64, nvcuda::wmma::mem_row_major);
// CHECK-NEXT:  }
// CHECK-NEXT:  if (threadIdx.x == 0)
// CHECK:  out[threadIdx.x] = threadIdx.x / 32;
