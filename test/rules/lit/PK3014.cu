// PK3014: a tensor-core kernel whose warp code is ported to native 64-lane
// warps (--wave64=native) keeps its tiles per 32-lane logical warp, so the
// widened warp ids and the tiles disagree: reported at the kernel. The
// default strategy keeps such kernels on logical warps and says nothing.
// RUN: rm -rf %t && %pk port -q --to hip --wave64=native -o %t %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DIAG
// RUN: FileCheck %s --match-full-lines --input-file=%t/hip/PK3014.hip
// RUN: %pk port -q --to hip -o %t/auto %s 2>&1 | FileCheck %s --check-prefix=AUTO
// AUTO-NOT: [PK3014]

#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

#define WARP_SIZE 32
// CHECK: #define WARP_SIZE 64

// One 16x16 tile of C per warp, numbered across the grid.
// DIAG: PK3014.cu:[[@LINE+1]]:17: warning: this kernel's warp code was ported to native 64-lane warps, but its matrix-core code keeps one set of tiles per 32-lane logical warp (two per wave): port it with --wave64=logical32 [PK3014]
__global__ void hgemm(const half *A, const half *Bt, float *C, int N, int K) {
// CHECK: // port-kernel: warning: this kernel's warp code was ported to native 64-lane warps, {{.*}} [PK3014]
// CHECK-NEXT: __global__ void hgemm(const half *A, const half *Bt, float *C, int N, int K) {
  const int warpId = (blockIdx.x * blockDim.x + threadIdx.x) / WARP_SIZE;
  const int tileRow = warpId / (N / 16);
  const int tileCol = warpId % (N / 16);
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  for (int k = 0; k < K; k += 16) {
    wmma::load_matrix_sync(a, A + (size_t)tileRow * 16 * K + k, K);
    wmma::load_matrix_sync(b, Bt + (size_t)tileCol * 16 * K + k, K);
    wmma::mma_sync(acc, a, b, acc);
  }
  wmma::store_matrix_sync(C + (size_t)tileRow * 16 * N + tileCol * 16, acc, N,
                          wmma::mem_row_major);
}
// DIAG-NOT: [PK3014]
