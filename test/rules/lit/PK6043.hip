// PK6043: a HIP kernel that computes a 16x16 tile per wave with
// the 16x16x16 f16 MFMA builtin, its operands loaded and its result
// stored in AMD's lane layout, becomes WMMA m16n16k16: the accumulator a
// fragment filled with 0, the operand loads load_matrix_sync (A row-major,
// B col-major here, read off the index arithmetic), the builtin mma_sync and
// the result loop store_matrix_sync.  The operand vector typedefs go.
// RUN: rm -rf %t && %pk port -q --to cuda -o %t %s 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: FileCheck %s --match-full-lines --input-file=%t/cuda/PK6043.cu
// RUN: grep -v RUN: %t/cuda/PK6043.cu | not grep "__builtin_amdgcn\|ext_vector_type\|half4\|acc\[r\]"
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>

typedef _Float16 half4 __attribute__((ext_vector_type(4)));
typedef float float4v __attribute__((ext_vector_type(4)));

// One wave per block: C[64 x 48] tile (blockIdx.y, blockIdx.x) = A * B with
// A row-major (lda = K), B column-major (ldb = K), C row-major (ldc = 48).
__global__ void mfma_tile(const __half *A, const _Float16 *B, float *C,
                          int K) {
  const int lane = __lane_id();
  const int row = blockIdx.y * 16, col = blockIdx.x * 16;
  float4v acc = {0.f, 0.f, 0.f, 0.f};
  for (int k = 0; k < K; k += 16) {
    half4 a, b;
    for (int e = 0; e < 4; ++e) {
      a[e] = A[(row + lane % 16) * K + k + 4 * (lane / 16) + e];
      b[e] = B[(col + lane % 16) * K + k + 4 * (lane / 16) + e];
    }
    acc = __builtin_amdgcn_mfma_f32_16x16x16f16(a, b, acc, 0, 0, 0);
// DIAG: PK6043.hip:[[@LINE-1]]:11: warning: WMMA's requirements that the MFMA code does not show: A operand's leading dimension K must be a multiple of 8 and its tiles 32-byte aligned at run time; B operand's leading dimension K must be a multiple of 8 and its tiles 32-byte aligned at run time [PK6043]
  }
  for (int r = 0; r < 4; ++r)
    C[(row + 4 * (lane / 16) + r) * 48 + col + lane % 16] = acc[r];
}
// DIAG-NOT: error

// CHECK: #include <mma.h> // port-kernel: WMMA fragments [PK6040]
// CHECK:  if (threadIdx.x % 64 < 32) {
// CHECK-NEXT:    nvcuda::wmma::fragment<nvcuda::wmma::accumulator, 16, 16, 16, float> acc;
// CHECK-NEXT:    nvcuda::wmma::fill_fragment(acc, 0.0f);
// CHECK-NEXT:    for (int k = 0; k < K; k += 16) {
// CHECK-NEXT:      nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 16, 16, 16, __half, nvcuda::wmma::row_major> a;
// CHECK-NEXT:      nvcuda::wmma::fragment<nvcuda::wmma::matrix_b, 16, 16, 16, __half, nvcuda::wmma::col_major> b;
// CHECK-NEXT:      nvcuda::wmma::load_matrix_sync(a, A + {{.*}}, K);
// CHECK-NEXT:      nvcuda::wmma::load_matrix_sync(b, reinterpret_cast<const __half *>(B + {{.*}}), K);
// CHECK-NEXT:      nvcuda::wmma::mma_sync(acc, a, b, acc);
// CHECK-NEXT:    }
// CHECK-NEXT:    nvcuda::wmma::store_matrix_sync(C + {{.*}}, acc, 48, nvcuda::wmma::mem_row_major);
// CHECK-NEXT:  }
