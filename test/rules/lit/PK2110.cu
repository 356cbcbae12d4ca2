// PK2110 (check): tensor-core fragment elements read or written by position
// (acc.x[0], acc.x[lane % 8]) and inline PTX mma.sync / ldmatrix assume
// NVIDIA's 32-lane fragment layout; element-wise loops over num_elements are
// layout-independent.
// RUN: not %pk check -q --to hip %s 2>&1 | FileCheck %s --check-prefix=DIAG

#include <cuda_fp16.h>
#include <mma.h>
#include <stdint.h>

using namespace nvcuda;

// One 16x16 tile: C = alpha * A * B + bias, the bias added in the registers.
__global__ void gemmBias(const half *A, const half *B, const float *bias,
                         float *C, float alpha) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  wmma::load_matrix_sync(a, A, 16);
  wmma::load_matrix_sync(b, B, 16);
  wmma::mma_sync(acc, a, b, acc);
// DIAG-NOT: [PK2110]
  for (int i = 0; i < acc.num_elements; ++i)
    acc.x[i] *= alpha;
  const int lane = threadIdx.x & 31;
  // Column of element 0 in NVIDIA's layout: (lane % 4) * 2.
// DIAG: PK2110.cu:[[@LINE+1]]:3: warning: 'acc.x[0]' reads a tensor-core fragment element by position: NVIDIA's m16n16k16 accumulator holds 8 elements per lane over 32 lanes, AMD's MFMA 4 per lane over 64 lanes [PK2110]
  acc.x[0] += bias[(lane % 4) * 2];
// DIAG: PK2110.cu:[[@LINE+1]]:3: warning: 'acc.x[lane % 8]' reads a tensor-core fragment element by position: {{.*}} [PK2110]
  acc.x[lane % 8] += 1.0f;
  wmma::store_matrix_sync(C, acc, 16, wmma::mem_row_major);
}

// Four 8x8 matrices from shared memory in NVIDIA's register layout.
__device__ void loadMatrixX4(uint32_t (&r)[4], const void *smem) {
  const unsigned addr = (unsigned)__cvta_generic_to_shared(smem);
// DIAG: PK2110.cu:[[@LINE+1]]:3: warning: inline PTX mma/ldmatrix: the fragment layout is NVIDIA's 32-lane layout [PK2110]
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(addr));
}
// DIAG-NOT: [PK2110]
