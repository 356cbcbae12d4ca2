// PK3017: a __shared__ tile of constant size that fragments are loaded from
// gets the row pitch with the fewest LDS cycles for the MFMA helpers' accesses:
// the last dimension and the leading dimension of each fragment load and
// store grow by the same `+ N`. Dynamic shared memory only gets a note with the
// pitch to use; --lds-padding=keep turns the rule off.
// RUN: rm -rf %t && %pk port -q --to hip --report %t/r.json -o %t %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DIAG
// RUN: FileCheck %s --match-full-lines --input-file=%t/hip/PK3017.hip
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t/r.json
// RUN: %pk port -q --to hip --lds-padding=keep -o %t/keep %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=KEEPDIAG --allow-empty
// RUN: FileCheck %s --check-prefix=KEEP --match-full-lines --input-file=%t/keep/hip/PK3017.hip

// REPORT: "PK3017": {{[0-9]+}}
// REPORT: "line": [[@LINE+21]],
// REPORT-NEXT: "offset": {{[0-9]+}},
// REPORT-NEXT: "replacement": "TILE_K + SKEW + 4",
// REPORT-NEXT: "rule": "PK3017",
// REPORT-NEXT: "why": "row pitch of 'As' 24 -> 28 elements (48 -> 56 bytes): the MFMA fragment loads and stores (v_mfma_f32_16x16x16) take 16 -> 8 LDS cycles (conflict-free: 8; 32 banks x 4 bytes, 128 bytes per phase)"
// KEEPDIAG-NOT: [PK3017]

#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

#define TILE_M 32
#define TILE_N 32
#define TILE_K 16
#define SKEW 8 // halves of padding per row, as for NVIDIA's shared memory

// A 2 x 2 grid of warps computes a 32x32 tile of C through shared tiles.
__global__ void __launch_bounds__(128)
smemGemm(const __half *A, const __half *B, float *C, int M, int N, int K) {
// DIAG: PK3017.cu:[[@LINE+1]]:21: note: row pitch of 'As' 24 -> 28 elements (48 -> 56 bytes): the MFMA fragment loads and stores (v_mfma_f32_16x16x16) take 16 -> 8 LDS cycles (conflict-free: 8; 32 banks x 4 bytes, 128 bytes per phase); shared memory +256 bytes [PK3017]
  __shared__ __half As[TILE_M][TILE_K + SKEW];
// CHECK:   __shared__ __half As[TILE_M][TILE_K + SKEW + 4];
// KEEP:   __shared__ __half As[TILE_M][TILE_K + SKEW];
  // Already conflict-free for the MFMA accesses: kept.
  __shared__ __half Bs[TILE_K][TILE_N + SKEW];
// CHECK:   __shared__ __half Bs[TILE_K][TILE_N + SKEW];
  __shared__ float Cs[TILE_M][TILE_N + 4];
// CHECK:   __shared__ float Cs[TILE_M][TILE_N + 4];
  const int tid = threadIdx.x, warp = tid / 32;
  const int wr = warp / 2, wc = warp % 2;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  for (int k0 = 0; k0 < K; k0 += TILE_K) {
    for (int i = tid; i < TILE_M * TILE_K; i += 128)
      As[i / TILE_K][i % TILE_K] =
          A[(size_t)(blockIdx.y * TILE_M + i / TILE_K) * K + k0 + i % TILE_K];
// CHECK:       As[i / TILE_K][i % TILE_K] =
    for (int i = tid; i < TILE_K * TILE_N; i += 128)
      Bs[i / TILE_N][i % TILE_N] =
          B[(size_t)(k0 + i / TILE_N) * N + blockIdx.x * TILE_N + i % TILE_N];
    __syncthreads();
    wmma::load_matrix_sync(a, &As[wr * 16][0], TILE_K + SKEW);
// CHECK:     pk_mfma::load_matrix_sync(a, &As[wr * 16][0], TILE_K + SKEW + 4);
// KEEP:     pk_mfma::load_matrix_sync(a, &As[wr * 16][0], TILE_K + SKEW);
    wmma::load_matrix_sync(b, &Bs[0][wc * 16], TILE_N + SKEW);
// CHECK:     pk_mfma::load_matrix_sync(b, &Bs[0][wc * 16], TILE_N + SKEW);
    wmma::mma_sync(acc, a, b, acc);
    __syncthreads();
  }
  wmma::store_matrix_sync(&Cs[wr * 16][wc * 16], acc, TILE_N + 4,
                          wmma::mem_row_major);
// CHECK:   pk_mfma::store_matrix_sync(&Cs[wr * 16][wc * 16], acc, TILE_N + 4,
  __syncthreads();
  for (int i = tid; i < TILE_M * TILE_N; i += 128)
    C[(size_t)(blockIdx.y * TILE_M + i / TILE_N) * N + blockIdx.x * TILE_N +
      i % TILE_N] = Cs[i / TILE_N][i % TILE_N];
}

// Dynamic shared memory with a hand-made pitch of 24 halves: advice only.
__global__ void dynamicTiles(const __half *g, float *out) {
  extern __shared__ __half smem[];
  for (int i = threadIdx.x; i < 32 * 16; i += blockDim.x)
    smem[(i / 16) * 24 + i % 16] = g[i];
  __syncthreads();
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
// DIAG: PK3017.cu:[[@LINE+1]]:3: note: the MFMA fragment loads and stores on 'smem' with leading dimension 24 (v_mfma_f32_16x16x16) take 32 LDS cycles; with a row pitch and leading dimension of 28 they would take 16 (conflict-free: 16). The pitch is not re-planned here: only __shared__ arrays of constant size reached as S[i][j] are [PK3017]
  wmma::load_matrix_sync(a, smem + (threadIdx.x / 32) * 16 * 24, 24);
// CHECK:   // port-kernel: note: the MFMA fragment loads and stores on 'smem' with leading dimension 24 {{.*}} [PK3017]
// CHECK-NEXT:   pk_mfma::load_matrix_sync(a, smem + (threadIdx.x / 32) * 16 * 24, 24);
  wmma::load_matrix_sync(b, smem, 24);
  wmma::mma_sync(acc, a, b, acc);
  wmma::store_matrix_sync(out + (threadIdx.x / 32) * 256, acc, 16,
                          wmma::mem_row_major);
}
// DIAG-NOT: [PK3017]
