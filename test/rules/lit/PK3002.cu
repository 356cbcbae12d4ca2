// PK3002: an inline-PTX mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// statement in its usual operand form becomes a call of the generated
// __pk_mma_m16n8k16_f16f32, which keeps the PTX register layout of each
// 32-lane logical warp and runs one v_mfma_f32_16x16x16f16 per logical warp.
// RUN: rm -rf %t && %pk port -q --to hip --report %t/r.json -o %t %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DIAG --allow-empty
// RUN: FileCheck %s --match-full-lines --input-file=%t/hip/PK3002.hip
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t/r.json
// RUN: FileCheck %s --check-prefix=NOASM --input-file=%t/hip/PK3002.hip

// REPORT: "PK3002": 3
// REPORT: "rule": "PK3002",
// REPORT-NEXT: "why": "helpers used by the rewrites in this file"
// REPORT: "rule": "PK3002",
// REPORT-NEXT: "why": "PTX mma.sync m16n8k16 (per 32-lane warp) -> v_mfma_f32_16x16x16f16 per logical warp, operands moved between the PTX and MFMA lane layouts with wave-wide shuffles"
// REPORT: "rule": "PK3002",
// REPORT-NEXT: "why": "PTX mma.sync m16n8k16 {{.*}}"

#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <stdint.h>
// CHECK: #include <stdint.h>
// CHECK: #ifndef PK_MFMA_PTX_MMA
// CHECK: // AMD matrix cores [PK3002].  The registers keep the PTX layout of each 32-lane
// CHECK: __device__ inline void __pk_mma_m16n8k16_f16f32(float &d0, float &d1, float &d2, float &d3,
// CHECK: #endif // PK_MFMA_PTX_MMA

// D = A * B + C with separate C inputs.
__device__ __forceinline__ void mma16816(float (&d)[4], const uint32_t (&a)[4],
                                         const uint32_t (&b)[2],
                                         const float (&c)[4]) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
      "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};\n"
      : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]),
        "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
// CHECK:   __pk_mma_m16n8k16_f16f32(d[0], d[1], d[2], d[3], a[0], a[1], a[2], a[3], b[0], b[1], c[0], c[1], c[2], c[3]);
}

// Each warp accumulates its own 16x8 tile over `steps` k-blocks whose
// registers are stored in the PTX layout.
__global__ void mmaKernel(const uint32_t *A, const uint32_t *B, float *C,
                          int steps) {
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  float acc[4] = {0.f, 0.f, 0.f, 0.f};
  for (int s = 0; s < steps; ++s) {
    const uint32_t *a = A + (size_t)(warp * steps + s) * 128 + lane * 4;
    const uint32_t *b = B + (size_t)(warp * steps + s) * 64 + lane * 2;
    // The accumulator registers are both C and D ("+f").
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
                 "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
                 "{%0, %1, %2, %3};"
                 : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]),
                   "r"(b[1]));
// CHECK:     __pk_mma_m16n8k16_f16f32(acc[0], acc[1], acc[2], acc[3], a[0], a[1], a[2], a[3], b[0], b[1], acc[0], acc[1], acc[2], acc[3]);
  }
  float d[4];
  const uint32_t fa[4] = {A[lane], A[lane + 32], A[lane + 64], A[lane + 96]};
  const uint32_t fb[2] = {B[lane], B[lane + 32]};
  mma16816(d, fa, fb, acc);
  for (int i = 0; i < 4; ++i)
    C[(warp * 32 + lane) * 4 + i] = d[i];
}
// DIAG-NOT: warning
// NOASM-NOT: {{asm[ ]volatile}}
