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
// Each logical warp's m16n8k16 product runs as one v_mfma_f32_16x16x16f16:
// warp t's B and C take columns 8t .. 8t+7 of MFMA t (lanes with (L % 16) / 8
// == t), the other columns are zero.  The operands are moved into the MFMA
// lane layout and the result back with 14 wave-wide shuffles: in every round
// each lane sends one of its registers to one lane and receives one.  Both
// logical warps of a wave call this together.
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
  const int t = x >> 3;               // the logical warp whose B and C this lane holds
  // A: both MFMAs need their warp's A in every lane: A_u[x][4 grp .. 4 grp + 3] is
  // register qa of PTX lanes sa (low pair) and sa + 1 (high pair) of warp u.
  // Lane s sends register (j + s % 2 + 2 (s / 32)) % 4 in round j: its four
  // registers go to four lanes, and each lane receives its four pairs.
  const int qa = (x >> 3) + 2 * (grp >> 1), sa = 4 * (x & 7) + 2 * (grp & 1);
  unsigned ar[4] = {0u, 0u, 0u, 0u}; // warp 0 low, high, warp 1 low, high
  for (int j = 0; j < 4; ++j) {
    const unsigned v = pick4(a0, a1, a2, a3, (j + (L & 1) + 2 * (L >> 5)) & 3);
    const int c = (qa - j) & 3; // the pair received: warp c / 2, high when c is odd
    const unsigned w = __shfl(v, sa + (c & 1) + 32 * (c >> 1), 64);
    for (int n = 0; n < 4; ++n)
      if (c == n) ar[n] = w;
  }
  // B: lane L needs B_t[4 grp .. 4 grp + 3][x % 8]: register grp / 2 of PTX
  // lanes sb and sb + 1 of warp t.  Round j: every lane sends register
  // (j + lane % 2) % 2.
  const int qb = grp >> 1, sb = 32 * t + 4 * (x & 7) + 2 * (grp & 1);
  unsigned br[2] = {0u, 0u};
  for (int j = 0; j < 2; ++j) {
    const unsigned v = ((j + (L & 1)) & 1) ? b1 : b0;
    const int h = (qb + j) & 1;
    const unsigned w = __shfl(v, sb + h, 64);
    if (h) br[1] = w;
    else br[0] = w;
  }
  // C: register r of lane L is C_t[4 grp + r][x % 8]: register qc of PTX lane
  // 32t + 4 (4 (grp % 2) + r) + (x % 8) / 2.  Round k: every lane sends
  // register (k + lane / 4) % 4 and receives its register (qc - k) % 4.
  const int qc = 2 * (grp >> 1) + (x & 1);
  float cr[4] = {0.f, 0.f, 0.f, 0.f};
  for (int k = 0; k < 4; ++k) {
    const float v = pick4(c0, c1, c2, c3, (k + (L >> 2)) & 3);
    const int r = (qc - k) & 3;
    const float w = __shfl(v, 32 * t + 4 * (4 * (grp & 1) + r) + ((x & 7) >> 1), 64);
    for (int n = 0; n < 4; ++n)
      if (r == n) cr[n] = w;
  }
  const f16x4 bz = halves(0u, 0u), bv = halves(br[0], br[1]);
  const f32x4 cz = {0.f, 0.f, 0.f, 0.f}, cv = {cr[0], cr[1], cr[2], cr[3]};
  const f32x4 dm0 = __builtin_amdgcn_mfma_f32_16x16x16f16(halves(ar[0], ar[1]), t ? bz : bv,
                                                          t ? cz : cv, 0, 0, 0);
  const f32x4 dm1 = __builtin_amdgcn_mfma_f32_16x16x16f16(halves(ar[2], ar[3]), t ? bv : bz,
                                                          t ? cv : cz, 0, 0, 0);
  const f32x4 dm = t ? dm1 : dm0; // this lane's columns belong to warp t
  // D: PTX register q of lane l (w = l / 32, g = (l % 32) / 4, tq = l % 4) is
  // D_w[g + 8 (q / 2)][2 tq + q % 2]: register g % 4 of lane 16 (g / 4 + 2 (q / 2))
  // + 8w + 2 tq + q % 2.  Round k: every lane sends register (k + 2 (lane / 32)
  // + lane % 2) % 4 and receives its register (g - k) % 4.
  const int g = (L >> 2) & 7, tq = L & 3, w = L >> 5;
  float dq[4] = {0.f, 0.f, 0.f, 0.f};
  for (int k = 0; k < 4; ++k) {
    const float v = pick4(dm[0], dm[1], dm[2], dm[3], (k + 2 * (L >> 5) + (L & 1)) & 3);
    const int q = ((g & 3) - k) & 3;
    const float got = __shfl(v, 16 * ((g >> 2) + 2 * (q >> 1)) + 8 * w + 2 * tq + (q & 1), 64);
    for (int n = 0; n < 4; ++n)
      if (q == n) dq[n] = got;
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
