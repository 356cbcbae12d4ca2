// PK3010: a fragment element accessed by position (a constant index, an index
// that is not the variable of a loop over the fragment's num_elements, or
// x itself passed on) is a different matrix entry in the MFMA layout;
// element-wise loops over num_elements are not reported.
// RUN: rm -rf %t && %pk port -q --to hip -o %t %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DIAG
// RUN: FileCheck %s --match-full-lines --input-file=%t/hip/PK3010.hip

#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

__device__ float firstOf(const float *x) { return x[0]; }

// One tile with a hand-written epilogue that assumes NVIDIA's layout.
__global__ void gemmEpilogue(const half *A, const half *B, const float *bias,
                             float *C, float *probe) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  wmma::load_matrix_sync(a, A, 16);
  wmma::load_matrix_sync(b, B, 16);
  wmma::mma_sync(acc, a, b, acc);
  const int lane = threadIdx.x % 32;
  // Column of element 0 in NVIDIA's layout: (lane % 4) * 2.
// DIAG: PK3010.cu:[[@LINE+1]]:3: warning: 'acc.x[0]' reads or writes a fragment element by position (a constant index); the element-to-lane mapping of the MFMA port differs from NVIDIA's, so this element is a different matrix entry (only loops over num_elements are layout-independent) [PK3010]
  acc.x[0] += bias[(lane % 4) * 2];
// CHECK:   // port-kernel: warning: 'acc.x[0]' reads or writes a fragment element by position (a constant index); {{.*}} [PK3010]
// CHECK-NEXT:   acc.x[0] += bias[(lane % 4) * 2];
  // NVIDIA's count of 8 elements per lane, not num_elements.
  for (int i = 0; i < 8; ++i)
// DIAG: PK3010.cu:[[@LINE+1]]:5: warning: 'acc.x[i]' reads or writes a fragment element by position (the loop is not `for (i = 0; i < frag.num_elements; ++i)` over a fragment of this type); {{.*}} [PK3010]
    acc.x[i] += bias[(lane % 4) * 2 + (i & 1) + 8 * (i / 4)];
// DIAG: PK3010.cu:[[@LINE+1]]:17: warning: 'acc.x[lane % 8]' reads or writes a fragment element by position (the index is not a loop variable); {{.*}} [PK3010]
  probe[lane] = acc.x[lane % 8];
// DIAG: PK3010.cu:[[@LINE+1]]:34: warning: 'acc.x' is used other than as x[i] in a loop over acc.num_elements; which elements a lane holds differs between NVIDIA and the MFMA layout (docs/mfma.md) [PK3010]
  probe[32 + lane] = firstOf(acc.x);
  // Element-wise: layout-independent.
// DIAG-NOT: [PK3010]
  for (int i = 0; i < acc.num_elements; ++i)
    acc.x[i] = acc.x[i] > 0.0f ? acc.x[i] : 0.0f;
  wmma::store_matrix_sync(C, acc, 16, wmma::mem_row_major);
}
