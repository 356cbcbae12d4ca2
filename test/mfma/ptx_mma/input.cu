// Inline PTX mma.sync m16n8k16 (f16 inputs, f32 accumulators) in its two
// usual operand forms.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <stdint.h>

__device__ __forceinline__ void mma_16816(float (&d)[4], const uint32_t (&a)[4],
                                          const uint32_t (&b)[2],
                                          const float (&c)[4]) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
      "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};\n"
      : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]),
        "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
}

__global__ void mma_kernel(const uint32_t *A, const uint32_t *B, float *C,
                           int steps) {
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  float acc[4] = {0.f, 0.f, 0.f, 0.f};
  for (int s = 0; s < steps; ++s) {
    const uint32_t *a = A + (size_t)(warp * steps + s) * 128 + lane * 4;
    const uint32_t *b = B + (size_t)(warp * steps + s) * 64 + lane * 2;
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
                 "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
                 "{%0, %1, %2, %3};"
                 : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]),
                   "r"(b[1]));
  }
  float d[4];
  const uint32_t fa[4] = {A[lane], A[lane + 32], A[lane + 64], A[lane + 96]};
  const uint32_t fb[2] = {B[lane], B[lane + 32]};
  mma_16816(d, fa, fb, acc);
  for (int i = 0; i < 4; ++i)
    C[(warp * 32 + lane) * 4 + i] = d[i];
}
