// PK3001: nvcuda::wmma m16n16k16 code (half or bf16 inputs, float
// accumulators) is ported to AMD matrix cores: wmma:: becomes pk_mfma::, a
// namespace generated into the file on the MFMA builtins, and <mma.h> and
// `using namespace nvcuda;` go away.
// RUN: rm -rf %t && %pk port -q --to hip --report %t/r.json -o %t %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DIAG
// RUN: FileCheck %s --match-full-lines --input-file=%t/hip/PK3001.hip
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t/r.json

// REPORT: "PK3001": {{[0-9]+}}
// REPORT: "replacement": "",
// REPORT-NEXT: "rule": "PK3001",
// REPORT-NEXT: "why": "<mma.h> declares nvcuda::wmma; the pk_mfma helpers generated into the ported files replace it"
// REPORT: "replacement": "\n#ifndef PK_MFMA_WMMA\n{{.*}}",
// REPORT-NEXT: "rule": "PK3001",
// REPORT-NEXT: "why": "helpers used by the rewrites in this file"
// REPORT: "rule": "PK3001",
// REPORT-NEXT: "why": "namespace nvcuda only holds wmma, which pk_mfma replaces"
// REPORT: "replacement": "pk_mfma::",
// REPORT-NEXT: "rule": "PK3001",
// REPORT-NEXT: "why": "nvcuda::wmma -> pk_mfma, generated into this file: each 64-lane wave holds the 16x16 tiles of its two 32-lane logical warps and multiplies them with v_mfma_f32_16x16x16"

#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <mma.h>
// CHECK: #include {{<}}hip/hip_fp16.h>
// CHECK-NOT: {{^}}#include <mma.h>
// CHECK: // port-kernel: nvcuda::wmma m16n16k16 on AMD matrix cores [PK3001]
// CHECK: namespace pk_mfma {
// CHECK: return __builtin_amdgcn_mfma_f32_16x16x16f16(va, vb, c, 0, 0, 0);
// CHECK: acc = detail::mfma16(&a.x[4 * t], &b.x[4 * t], acc);
// CHECK: } // namespace pk_mfma

using namespace nvcuda;
// CHECK-NOT: {{^}}using namespace nvcuda;

#define WARP_SIZE 32

// One 16x16 tile of C per warp with a ReLU epilogue; A row-major, B
// col-major (B^T stored row by row).
// DIAG: PK3001.cu:[[@LINE+1]]:1: note: kernel hgemmRelu: logical 32-lane warps inside 64-lane waves because it uses tensor-core fragments, whose warp-to-tile mapping the MFMA rules port (line {{[0-9]+}}) [PK2000]
__global__ void hgemmRelu(const half *A, const half *Bt, float *C, int M,
                          int N, int K) {
  const int warpId = (blockIdx.x * blockDim.x + threadIdx.x) / WARP_SIZE;
  const int tileRow = warpId / (N / 16);
  const int tileCol = warpId % (N / 16);
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
// CHECK:   pk_mfma::fragment<pk_mfma::matrix_a, 16, 16, 16, half, pk_mfma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> b;
// CHECK:   pk_mfma::fragment<pk_mfma::matrix_b, 16, 16, 16, half, pk_mfma::col_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
// CHECK:   pk_mfma::fragment<pk_mfma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
// CHECK:   pk_mfma::fill_fragment(acc, 0.0f);
  for (int k = 0; k < K; k += 16) {
    wmma::load_matrix_sync(a, A + (size_t)tileRow * 16 * K + k, K);
// CHECK:     pk_mfma::load_matrix_sync(a, A + (size_t)tileRow * 16 * K + k, K);
    wmma::load_matrix_sync(b, Bt + (size_t)tileCol * 16 * K + k, K);
// CHECK:     pk_mfma::load_matrix_sync(b, Bt + (size_t)tileCol * 16 * K + k, K);
    wmma::mma_sync(acc, a, b, acc);
// CHECK:     pk_mfma::mma_sync(acc, a, b, acc);
  }
  // Element-wise: the same in every layout, kept as written.
  for (int i = 0; i < acc.num_elements; ++i)
    acc.x[i] = fmaxf(acc.x[i], 0.0f);
// CHECK:   for (int i = 0; i < acc.num_elements; ++i)
// CHECK-NEXT:     acc.x[i] = fmaxf(acc.x[i], 0.0f);
  wmma::store_matrix_sync(C + (size_t)tileRow * 16 * N + tileCol * 16, acc, N,
                          wmma::mem_row_major);
// CHECK:   pk_mfma::store_matrix_sync(C + (size_t)tileRow * 16 * N + tileCol * 16, acc, N,
// CHECK-NEXT:                           pk_mfma::mem_row_major);
}

// A namespace alias.
namespace w = nvcuda::wmma;
// CHECK: namespace w = pk_mfma;
__device__ void tileProduct(const half *A, const half *B, float *C) {
  w::fragment<w::matrix_a, 16, 16, 16, half, w::row_major> a;
// CHECK:   w::fragment<w::matrix_a, 16, 16, 16, half, w::row_major> a;
  w::fragment<w::matrix_b, 16, 16, 16, half, w::row_major> b;
  w::fragment<w::accumulator, 16, 16, 16, float> c;
  w::fill_fragment(c, 0.0f);
  w::load_matrix_sync(a, A, 16);
  w::load_matrix_sync(b, B, 16);
  w::mma_sync(c, a, b, c);
  w::store_matrix_sync(C, c, 16, w::mem_col_major);
// CHECK:   w::store_matrix_sync(C, c, 16, w::mem_col_major);
}
// DIAG-NOT: warning
