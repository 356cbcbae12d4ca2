// PK3015: WMMA code with another shape, element type or function than
// m16n16k16 half/bf16 -> float is reported at each such use, and the file's
// WMMA code is left unchanged (a partial port would mix two fragment types),
// <mma.h> with its PK1010 finding included.
// RUN: rm -rf %t && %pk port -q --to hip -o %t %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DIAG
// RUN: FileCheck %s --match-full-lines --input-file=%t/hip/PK3015.hip
// RUN: FileCheck %s --check-prefix=NOMFMA --input-file=%t/hip/PK3015.hip
// NOMFMA-NOT: {{pk_mfma[:][:]}}

#include <cuda_fp16.h>
// DIAG: PK3015.cu:[[@LINE+1]]:1: warning: header <mma.h> has no HIP counterpart: {{.*}} [PK1010]
#include <mma.h>
// CHECK: #include <mma.h>

using namespace nvcuda;
// CHECK: using namespace nvcuda;

// m32n8k16 with a half accumulator.
__global__ void halfAcc(const half *A, const half *B, half *C) {
// DIAG: PK3015.cu:[[@LINE+1]]:68: warning: fragment<matrix_a, 32, 8, 16, half> is not ported (supported: m16n16k16 with half or __nv_bfloat16 inputs and float accumulators); the WMMA code of this file is left unchanged [PK3015]
  wmma::fragment<wmma::matrix_a, 32, 8, 16, half, wmma::row_major> a;
// CHECK:   // port-kernel: warning: fragment<matrix_a, 32, 8, 16, half> is not ported {{.*}} [PK3015]
// CHECK-NEXT:   wmma::fragment<wmma::matrix_a, 32, 8, 16, half, wmma::row_major> a;
// DIAG: PK3015.cu:[[@LINE+1]]:68: warning: fragment<matrix_b, 32, 8, 16, half> is not ported {{.*}} [PK3015]
  wmma::fragment<wmma::matrix_b, 32, 8, 16, half, wmma::col_major> b;
// DIAG: PK3015.cu:[[@LINE+1]]:54: warning: fragment<accumulator, 32, 8, 16, half> is not ported {{.*}} [PK3015]
  wmma::fragment<wmma::accumulator, 32, 8, 16, half> acc;
  wmma::fill_fragment(acc, __float2half(0.0f));
  wmma::load_matrix_sync(a, A, 16);
  wmma::load_matrix_sync(b, B, 16);
  wmma::mma_sync(acc, a, b, acc);
  wmma::store_matrix_sync(C, acc, 8, wmma::mem_row_major);
}

// A supported configuration, left unchanged with the rest of the file.
// DIAG-NOT: [PK3015]
__global__ void floatAcc(const half *A, const half *B, float *C) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
// CHECK:   wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  wmma::load_matrix_sync(a, A, 16);
  wmma::load_matrix_sync(b, B, 16);
  wmma::mma_sync(acc, a, b, acc);
// CHECK:   wmma::mma_sync(acc, a, b, acc);
  wmma::store_matrix_sync(C, acc, 16, wmma::mem_row_major);
}
