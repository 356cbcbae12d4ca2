// PK3013: the MFMA port runs two 32-lane logical warps per 64-lane wave, so a
// kernel with fragments needs blocks of an even number of warps; an odd
// count in __launch_bounds__ or in a launch with a constant block size is
// reported.
// RUN: rm -rf %t && %pk port -q --to hip -o %t %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DIAG
// RUN: FileCheck %s --match-full-lines --input-file=%t/hip/PK3013.hip

#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

#define TILES_PER_BLOCK 3

// One 16x16 tile per warp, TILES_PER_BLOCK warps per block.
// DIAG: PK3013.cu:[[@LINE+1]]:17: warning: blocks of 96 threads are 3 32-lane warps: the matrix-core port runs two logical warps per 64-lane wave and needs an even number of warps (a multiple of 64 threads) [PK3013]
__global__ void __launch_bounds__(TILES_PER_BLOCK * 32)
tileGemm(const half *A, const half *B, float *C) {
// CHECK: // port-kernel: warning: blocks of 96 threads are 3 32-lane warps: {{.*}} [PK3013]
// CHECK-NEXT: __global__ void __launch_bounds__(TILES_PER_BLOCK * 32)
  const int tile = blockIdx.x * TILES_PER_BLOCK + threadIdx.x / 32;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  wmma::load_matrix_sync(a, A + tile * 256, 16);
  wmma::load_matrix_sync(b, B + tile * 256, 16);
  wmma::mma_sync(acc, a, b, acc);
  wmma::store_matrix_sync(C + tile * 256, acc, 16, wmma::mem_row_major);
}

// No fragments: any block size is fine here.
__global__ void scale(float *C, float s) { C[blockIdx.x * 96 + threadIdx.x] *= s; }

void run(const half *A, const half *B, float *C, int tiles) {
// DIAG: PK3013.cu:[[@LINE+1]]:39: warning: blocks of 96 threads are 3 32-lane warps: {{.*}} [PK3013]
  tileGemm<<<tiles / TILES_PER_BLOCK, TILES_PER_BLOCK * 32>>>(A, B, C);
// DIAG: PK3013.cu:[[@LINE+1]]:45: warning: blocks of 96 threads are 3 32-lane warps: {{.*}} [PK3013]
  tileGemm<<<dim3(tiles / TILES_PER_BLOCK), dim3(32, TILES_PER_BLOCK)>>>(A, B, C);
  // Even numbers of warps, and blocks of unknown size, are not reported.
// DIAG-NOT: [PK3013]
  tileGemm<<<tiles / 2, 64>>>(A, B, C);
  tileGemm<<<tiles / 2, dim3(32, 2)>>>(A, B, C);
  tileGemm<<<1, tiles * 32>>>(A, B, C);
  scale<<<tiles / 3, 96>>>(C, 0.5f);
}
