// PK6042: an MFMA builtin outside the fragment pattern that PK6043 maps to
// WMMA is an error with the reason, and the call is left as written: operand
// loads that do not follow AMD's lane layout, another MFMA shape, an
// accumulator that does not start at zero, a kernel that also uses warp
// collectives.
// RUN: rm -rf %t && not %pk port -q --to cuda -o %t %s 2>&1 | FileCheck %s
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>

typedef _Float16 half4 __attribute__((ext_vector_type(4)));
typedef float float4v __attribute__((ext_vector_type(4)));
typedef float float16v __attribute__((ext_vector_type(16)));

// The K group of a lane steps 8 elements: not the MFMA layout.
__global__ void wrong_layout(const __half *A, const __half *B, float *C, int N,
                             int K) {
  const int lane = threadIdx.x;
  float4v acc = {0.f, 0.f, 0.f, 0.f};
  for (int k = 0; k < K; k += 16) {
    half4 a, b;
    for (int e = 0; e < 4; ++e) {
      a[e] = A[(lane % 16) * K + k + 8 * (lane / 16) + e];
      b[e] = B[(k + 4 * (lane / 16) + e) * N + lane % 16];
    }
    acc = __builtin_amdgcn_mfma_f32_16x16x16f16(a, b, acc, 0, 0, 0);
// CHECK: PK6042.hip:[[@LINE-1]]:11: error: an MFMA builtin whose fragment pattern is not recognised, not translated: A operand: the lane's K group (lane / 16) does not step 4 elements (line [[@LINE-4]]) [PK6042]
  }
  for (int r = 0; r < 4; ++r)
    C[(4 * (lane / 16) + r) * N + lane % 16] = acc[r];
}

// 32x32x8 is not mapped.
__global__ void shape32(const __half *A, const __half *B, float *C) {
  const int lane = threadIdx.x;
  float16v acc = {};
  for (int k = 0; k < 32; k += 8) {
    half4 a, b;
    for (int e = 0; e < 4; ++e) {
      a[e] = A[(lane % 32) * 32 + k + 4 * (lane / 32) + e];
      b[e] = B[(k + 4 * (lane / 32) + e) * 32 + lane % 32];
    }
    acc = __builtin_amdgcn_mfma_f32_32x32x8f16(a, b, acc, 0, 0, 0);
// CHECK: PK6042.hip:[[@LINE-1]]:11: error: an MFMA builtin whose fragment pattern is not recognised, not translated: only __builtin_amdgcn_mfma_f32_16x16x16f16 is mapped to WMMA (m16n16k16) [PK6042]
  }
  for (int r = 0; r < 16; ++r)
    C[(8 * (r / 4) + 4 * (lane / 32) + r % 4) * 32 + lane % 32] = acc[r];
}

// C += A * B: the accumulator starts from C.
__global__ void accumulate(const __half *A, const __half *B, float *C) {
  const int lane = threadIdx.x;
  float4v acc;
  for (int r = 0; r < 4; ++r)
    acc[r] = C[(4 * (lane / 16) + r) * 16 + lane % 16];
  for (int k = 0; k < 16; k += 16) {
    half4 a, b;
    for (int e = 0; e < 4; ++e) {
      a[e] = A[(lane % 16) * 16 + k + 4 * (lane / 16) + e];
      b[e] = B[(k + 4 * (lane / 16) + e) * 16 + lane % 16];
    }
    acc = __builtin_amdgcn_mfma_f32_16x16x16f16(a, b, acc, 0, 0, 0);
// CHECK: PK6042.hip:[[@LINE-1]]:11: error: an MFMA builtin whose fragment pattern is not recognised, not translated: the accumulator is not declared just before the K loop (line [[@LINE-7]]) [PK6042]
  }
  for (int r = 0; r < 4; ++r)
    C[(4 * (lane / 16) + r) * 16 + lane % 16] = acc[r];
}

// A shuffle elsewhere in the kernel would see 32 lanes.
__global__ void with_shuffle(const __half *A, const __half *B, float *C,
                             float *S) {
  const int lane = threadIdx.x;
  float4v acc = {0.f, 0.f, 0.f, 0.f};
  for (int k = 0; k < 16; k += 16) {
    half4 a, b;
    for (int e = 0; e < 4; ++e) {
      a[e] = A[(lane % 16) * 16 + k + 4 * (lane / 16) + e];
      b[e] = B[(k + 4 * (lane / 16) + e) * 16 + lane % 16];
    }
    acc = __builtin_amdgcn_mfma_f32_16x16x16f16(a, b, acc, 0, 0, 0);
// CHECK: PK6042.hip:[[@LINE-1]]:11: error: an MFMA builtin whose fragment pattern is not recognised, not translated: the kernel also uses __shfl_xor, which counts 32 lanes on a CUDA warp while the mapping keeps 64-lane wave numbers (line [[@LINE+5]]) [PK6042]
  }
  for (int r = 0; r < 4; ++r)
    C[(4 * (lane / 16) + r) * 16 + lane % 16] = acc[r];
  float v = C[lane];
  S[lane] = v + __shfl_xor(v, 32);
}
