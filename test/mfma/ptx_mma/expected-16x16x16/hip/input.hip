// Inline PTX mma.sync m16n8k16 (f16 inputs, f32 accumulators) in its two
// usual operand forms.
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#include <stdint.h>

#ifndef PK_MFMA_PTX_MMA
#define PK_MFMA_PTX_MMA
// port-kernel: inline PTX mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 on
// AMD matrix cores [PK3002].  The registers keep the PTX layout of each 32-lane
// logical warp (g = lane / 4, t = lane % 4 within the warp):
//   a0..a3: half2 of A[g + 8 (q % 2)][2t + 8 (q / 2) + {0,1}]
//   b0, b1: half2 of B[2t + 8q + {0,1}][g]
//   c/d 0..3: C[g + 8 (q / 2)][2t + q % 2]
// Each logical warp's m16n8k16 product runs as one v_mfma_f32_16x16x16f16
// (columns 8-15 unused); the operands are moved into the MFMA lane layout
// with 28 wave-wide shuffles and the result is moved back.  Both logical
// warps of a wave call this together.
namespace pk_mfma_ptx {
typedef _Float16 f16x4 __attribute__((ext_vector_type(4)));
typedef float f32x4 __attribute__((ext_vector_type(4)));
typedef unsigned u32x2 __attribute__((ext_vector_type(2)));
template <class T> __device__ inline T pick4(T v0, T v1, T v2, T v3, int i) {
  return i == 0 ? v0 : i == 1 ? v1 : i == 2 ? v2 : v3;
}
__device__ inline f16x4 halves(unsigned lo, unsigned hi) {
  const u32x2 w = {lo, hi};
  f16x4 h;
  __builtin_memcpy(&h, &w, 8);
  return h;
}
} // namespace pk_mfma_ptx

__device__ inline void __pk_mma_m16n8k16_f16f32(float &d0, float &d1, float &d2, float &d3,
                                                unsigned a0, unsigned a1, unsigned a2,
                                                unsigned a3, unsigned b0, unsigned b1,
                                                float c0, float c1, float c2, float c3) {
  using namespace pk_mfma_ptx;
  const int L = (int)__lane_id();
  const int x = L & 15, grp = L >> 4; // MFMA operand lane: A row / B, C column; k or row group
  // A: MFMA lane L needs A_w[x][4 grp .. 4 grp + 3]: register qa of PTX lanes sa
  // (low pair) and sa + 1 (high pair) of warp w.  In round j every lane sends
  // register (j + lane % 2) % 4, so four rounds deliver both pairs.
  const int qa = (x >> 3) + 2 * (grp >> 1), sa = 4 * (x & 7) + 2 * (grp & 1);
  unsigned alo[2] = {0u, 0u}, ahi[2] = {0u, 0u};
  for (int j = 0; j < 4; ++j) {
    const unsigned v = pick4(a0, a1, a2, a3, (j + (L & 1)) & 3);
    const int src = j == qa ? sa : sa + 1;
    const unsigned w0 = __shfl(v, src, 64), w1 = __shfl(v, 32 + src, 64);
    if (j == qa) { alo[0] = w0; alo[1] = w1; }
    if (j == ((qa + 3) & 3)) { ahi[0] = w0; ahi[1] = w1; }
  }
  // B: MFMA lane L needs B_w[4 grp .. 4 grp + 3][x % 8]: register qb of PTX
  // lanes sb and sb + 1.
  const int qb = grp >> 1, sb = 4 * (x & 7) + 2 * (grp & 1);
  unsigned blo[2] = {0u, 0u}, bhi[2] = {0u, 0u};
  for (int j = 0; j < 2; ++j) {
    const unsigned v = ((j + (L & 1)) & 1) ? b1 : b0;
    const int src = j == qb ? sb : sb + 1;
    const unsigned w0 = __shfl(v, src, 64), w1 = __shfl(v, 32 + src, 64);
    if (j == qb) { blo[0] = w0; blo[1] = w1; }
    else { bhi[0] = w0; bhi[1] = w1; }
  }
  // C: MFMA register r of lane L is C_w[4 grp + r][x % 8]: register qc of PTX
  // lane 4 (4 (grp % 2) + r) + (x % 8) / 2.  In round k every lane sends
  // register (lane / 4 - k) % 4 and receives its register (k + qc) % 4.
  const int qc = 2 * (grp >> 1) + (x & 1);
  float cm[2][4] = {{0.f, 0.f, 0.f, 0.f}, {0.f, 0.f, 0.f, 0.f}};
  for (int k = 0; k < 4; ++k) {
    const float v = pick4(c0, c1, c2, c3, (((L >> 2) & 3) - k) & 3);
    const int r = (k + qc) & 3;
    const int src = 4 * (4 * (grp & 1) + r) + ((x & 7) >> 1);
    const float w0 = __shfl(v, src, 64), w1 = __shfl(v, 32 + src, 64);
    for (int n = 0; n < 4; ++n)
      if (r == n) { cm[0][n] = w0; cm[1][n] = w1; }
  }
  f32x4 dm[2];
  for (int t = 0; t < 2; ++t) {
    const f32x4 c = {cm[t][0], cm[t][1], cm[t][2], cm[t][3]};
    dm[t] = __builtin_amdgcn_mfma_f32_16x16x16f16(halves(alo[t], ahi[t]),
                                                  halves(blo[t], bhi[t]), c, 0, 0, 0);
  }
  // D: PTX register q of lane l (g = l / 4, t = l % 4) is D_w[g + 8 (q / 2)][2t + q % 2]:
  // register g % 4 of MFMA lane 2t + q % 2 + 16 (g / 4) + 32 (q / 2).  In round
  // k every lane sends register (k + lane % 2 + 2 (lane / 32)) % 4 and receives
  // its register (g - k) % 4.
  const int g = (L >> 2) & 7, tq = L & 3, rot = (L & 1) + 2 * (L >> 5);
  float dq[4] = {0.f, 0.f, 0.f, 0.f};
  for (int k = 0; k < 4; ++k) {
    const int s = (k + rot) & 3;
    const float v0 = pick4(dm[0][0], dm[0][1], dm[0][2], dm[0][3], s);
    const float v1 = pick4(dm[1][0], dm[1][1], dm[1][2], dm[1][3], s);
    const int q = ((g & 3) - k) & 3;
    const int src = 2 * tq + (q & 1) + 16 * (g >> 2) + 32 * (q >> 1);
    const float w0 = __shfl(v0, src, 64), w1 = __shfl(v1, src, 64);
    const float w = L < 32 ? w0 : w1;
    for (int n = 0; n < 4; ++n)
      if (q == n) dq[n] = w;
  }
  d0 = dq[0];
  d1 = dq[1];
  d2 = dq[2];
  d3 = dq[3];
}
#endif // PK_MFMA_PTX_MMA

__device__ __forceinline__ void mma_16816(float (&d)[4], const uint32_t (&a)[4],
                                          const uint32_t (&b)[2],
                                          const float (&c)[4]) {
  __pk_mma_m16n8k16_f16f32(d[0], d[1], d[2], d[3], a[0], a[1], a[2], a[3], b[0], b[1], c[0], c[1], c[2], c[3]);
}

__global__ void mma_kernel(const uint32_t *A, const uint32_t *B, float *C,
                           int steps) {
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  float acc[4] = {0.f, 0.f, 0.f, 0.f};
  for (int s = 0; s < steps; ++s) {
    const uint32_t *a = A + (size_t)(warp * steps + s) * 128 + lane * 4;
    const uint32_t *b = B + (size_t)(warp * steps + s) * 64 + lane * 2;
    __pk_mma_m16n8k16_f16f32(acc[0], acc[1], acc[2], acc[3], a[0], a[1], a[2], a[3], b[0], b[1], acc[0], acc[1], acc[2], acc[3]);
  }
  float d[4];
  const uint32_t fa[4] = {A[lane], A[lane + 32], A[lane + 64], A[lane + 96]};
  const uint32_t fb[2] = {B[lane], B[lane + 32]};
  mma_16816(d, fa, fb, acc);
  for (int i = 0; i < 4; ++i)
    C[(warp * 32 + lane) * 4 + i] = d[i];
}
