// PK3004: a fragment operation (or an element-wise loop over x[]) under a
// condition that depends on the warp, or an early return of a warp that
// PK3003 cannot make wave-uniform, may split the two logical warps of a
// 64-lane wave; the code is translated as written and reported.
// RUN: rm -rf %t && %pk port -q --to hip -o %t %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DIAG
// RUN: FileCheck %s --match-full-lines --input-file=%t/hip/PK3004.hip

#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

// Split-K: warp w multiplies k-blocks w, w + 4, ...; its trip count depends on
// the warp.
__global__ void splitK(const half *A, const half *B, float *C, int K,
                       float alpha) {
  const int warp = threadIdx.x / 32;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  for (int k = warp * 16; k < K; k += 4 * 16) {
// DIAG: PK3004.cu:[[@LINE+1]]:5: warning: this fragment operation runs under 'k < K', which depends on the warp; the MFMA port needs both logical warps of a wave (warps 2w and 2w+1) to take the same branch [PK3004]
    wmma::load_matrix_sync(a, A + k, K);
// CHECK:     // port-kernel: warning: this fragment operation runs under 'k < K', which depends on the warp; the MFMA port needs both logical warps of a wave (warps 2w and 2w+1) to take the same branch [PK3004]
// CHECK-NEXT:     pk_mfma::load_matrix_sync(a, A + k, K);
// DIAG: PK3004.cu:[[@LINE+1]]:5: warning: this fragment operation runs under 'k < K', {{.*}} [PK3004]
    wmma::load_matrix_sync(b, B + k, K);
// DIAG: PK3004.cu:[[@LINE+1]]:5: warning: this fragment operation runs under 'k < K', {{.*}} [PK3004]
    wmma::mma_sync(acc, a, b, acc);
  }
  // A condition that is the same for the whole block is fine.
// DIAG-NOT: [PK3004]
  if (blockIdx.x == 0)
    for (int i = 0; i < acc.num_elements; ++i)
      acc.x[i] *= alpha;
  if (warp == 0)
// DIAG: PK3004.cu:[[@LINE+1]]:5: warning: this element-wise loop over x[] runs under 'warp == 0', which depends on the warp; the MFMA port needs both logical warps of a wave (warps 2w and 2w+1) to take the same branch, because each lane holds elements of both warps' tiles [PK3004]
    for (int i = 0; i < acc.num_elements; ++i)
      acc.x[i] *= 2.0f;
  wmma::store_matrix_sync(C + warp * 256, acc, 16, wmma::mem_row_major);
}

// The A rows are gathered through an index read inside the fragment load, so
// the early return cannot be turned into masked loads.
__global__ void gathered(const half *A, const int *rowOf, float *C, int n) {
  const int warp = threadIdx.x / 32;
// DIAG: PK3004.cu:[[@LINE+1]]:3: warning: this early return depends on the warp ('warp >= n') and comes before fragment operations; it could not be made wave-uniform ('rowOf[warp]' after it is a read of memory): on a 64-lane wave the two logical warps must reach every fragment operation together [PK3004]
  if (warp >= n)
    return;
// CHECK:   // port-kernel: warning: this early return depends on the warp ('warp >= n') {{.*}} [PK3004]
// CHECK-NEXT:   if (warp >= n)
// CHECK-NEXT:     return;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  wmma::load_matrix_sync(a, A + rowOf[warp] * 16, 16);
// CHECK:   pk_mfma::load_matrix_sync(a, A + rowOf[warp] * 16, 16);
  wmma::load_matrix_sync(b, A, 16);
  wmma::mma_sync(acc, a, b, acc);
  wmma::store_matrix_sync(C + warp * 256, acc, 16, wmma::mem_row_major);
// CHECK:   pk_mfma::store_matrix_sync(C + warp * 256, acc, 16, pk_mfma::mem_row_major);
}
// DIAG-NOT: [PK3004]
