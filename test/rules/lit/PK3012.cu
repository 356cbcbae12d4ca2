// PK3012: bf16 fragments are ported to the _1k bf16 MFMA instructions, which
// exist from gfx90a (MI200) and on gfx94x (MI300) but not on gfx908 (MI100):
// one note at the first bf16 fragment of the file, a guard in the helper, and
// the GPUs in the report and the summary.  (ROCm 5's hip_bfloat16 here;
// ROCm 6's __hip_bfloat16 is the golden test test/mfma/wmma_basic.)
// RUN: rm -rf %t && %pk port --to hip --rocm-version=5 --report %t/r.json -o %t %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DIAG
// RUN: FileCheck %s --match-full-lines --input-file=%t/hip/PK3012.hip
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t/r.json

// REPORT: "PK3012": 1
// REPORT: "gpus": [
// REPORT-NEXT: "gfx90a",
// REPORT-NEXT: "gfx940",
// REPORT-NEXT: "gfx941",
// REPORT-NEXT: "gfx942"
// REPORT-NEXT: ],
// REPORT: "needs": [
// REPORT-NEXT: "mfma-bf16"
// REPORT-NEXT: ],
// REPORT: "message": "bf16 fragments use __builtin_amdgcn_mfma_f32_16x16x16bf16_1k: {{.*}}",
// REPORT-NEXT: "rule": "PK3012",
// REPORT-NEXT: "severity": "note"

#include <cuda_bf16.h>
#include <mma.h>
// CHECK: // (gfx90a, gfx94x) [PK3001, PK3012]
// CHECK-NEXT: #if defined(__gfx908__)
// CHECK-NEXT: #error "bf16 matrix cores (the _1k MFMA instructions) need gfx90a or newer [PK3012]"
// CHECK: return __builtin_amdgcn_mfma_f32_16x16x16bf16_1k(va, vb, c, 0, 0, 0);

using namespace nvcuda;

typedef __nv_bfloat16 bf16;

// One 16x16 tile of C per warp, A row-major, B^T row by row.
__global__ void bf16Gemm(const bf16 *A, const bf16 *Bt, float *C, int N, int K) {
  const int warpId = threadIdx.x / 32;
  const int tileRow = blockIdx.y * 2 + warpId / 2;
  const int tileCol = blockIdx.x * 2 + warpId % 2;
// DIAG: PK3012.cu:[[@LINE+1]]:69: note: bf16 fragments use __builtin_amdgcn_mfma_f32_16x16x16bf16_1k: the output runs on gfx90a (MI200), gfx940/941/942 (MI300) and newer CDNA GPUs, not on gfx908 (MI100), which has no bf16_1k matrix instructions [PK3012]
  wmma::fragment<wmma::matrix_a, 16, 16, 16, bf16, wmma::row_major> a;
// CHECK:   // port-kernel: note: bf16 fragments use __builtin_amdgcn_mfma_f32_16x16x16bf16_1k: {{.*}} [PK3012]
// CHECK-NEXT:   pk_mfma::fragment<pk_mfma::matrix_a, 16, 16, 16, bf16, pk_mfma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::col_major> b;
// CHECK:   pk_mfma::fragment<pk_mfma::matrix_b, 16, 16, 16, hip_bfloat16, pk_mfma::col_major> b;
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
// DIAG-NOT: [PK3012]
// DIAG: port-kernel: hip: 1 file needs mfma-bf16 (gfx90a, gfx940, gfx941, gfx942)
