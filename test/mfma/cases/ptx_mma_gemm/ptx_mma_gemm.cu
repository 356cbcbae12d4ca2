// GEMM with inline PTX mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32:
// each warp owns a 16x8 tile of C = A * B (A: M x K row-major half, B: K x N
// row-major half, C: M x N float) and keeps its fragments in registers in the
// PTX layout (g = lane / 4, t = lane % 4).  A 64-thread block holds 2 warps
// side by side.  M, K multiples of 16, N a multiple of 16.
#include <cuda_runtime.h>
#include <cuda_fp16.h>

__device__ __forceinline__ unsigned pack_half2(__half lo, __half hi) {
  return (unsigned)__half_as_ushort(lo) | ((unsigned)__half_as_ushort(hi) << 16);
}

__global__ void ptx_mma_gemm(const __half *__restrict__ A,
                             const __half *__restrict__ B,
                             float *__restrict__ C, int M, int N, int K) {
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int g = lane >> 2, t = lane & 3;
  const int row0 = blockIdx.y * 16, col0 = (blockIdx.x * 2 + warp) * 8;
  float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  for (int k0 = 0; k0 < K; k0 += 16) {
    const __half *a = A + (size_t)row0 * K + k0;
    const __half *b = B + (size_t)k0 * N + col0 + g;
    unsigned a0 = pack_half2(a[g * K + 2 * t], a[g * K + 2 * t + 1]);
    unsigned a1 = pack_half2(a[(g + 8) * K + 2 * t], a[(g + 8) * K + 2 * t + 1]);
    unsigned a2 = pack_half2(a[g * K + 2 * t + 8], a[g * K + 2 * t + 9]);
    unsigned a3 = pack_half2(a[(g + 8) * K + 2 * t + 8], a[(g + 8) * K + 2 * t + 9]);
    unsigned b0 = pack_half2(b[(2 * t) * N], b[(2 * t + 1) * N]);
    unsigned b1 = pack_half2(b[(2 * t + 8) * N], b[(2 * t + 9) * N]);
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
        "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
        : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3])
        : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
  }
  float *c = C + (size_t)(row0 + g) * N + col0 + 2 * t;
  c[0] = acc[0];
  c[1] = acc[1];
  c[8 * N] = acc[2];
  c[8 * N + 1] = acc[3];
}
